// Small objects for the module: operator new and delete of up to 512 bytes take
// a block from a free list per 16-byte size class, carved from 64 KiB pages;
// larger ones go to malloc. The page a pointer lies in names its class (one
// byte per page of the 4 GiB address space), so delete needs no header.
// WebAssembly here is single-threaded; an estimate makes about a hundred small
// allocations, which dlmalloc's general bins serve several times slower.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kPage = 65536;
constexpr std::size_t kStep = 16;
constexpr std::size_t kMaxSmall = 512;
constexpr std::size_t kClasses = kMaxSmall / kStep;

struct FreeBlock {
  FreeBlock* next;
};

struct SmallHeap {
  FreeBlock* free[kClasses + 1] = {};
  char* next[kClasses + 1] = {};
  char* end[kClasses + 1] = {};
  unsigned char page_class[(std::uint64_t{1} << 32) / kPage] = {};
};

SmallHeap heap;

__attribute__((noinline)) bool new_page(std::size_t cls) {
  char* page = static_cast<char*>(std::aligned_alloc(kPage, kPage));
  if (page == nullptr) return false;
  heap.page_class[reinterpret_cast<std::uintptr_t>(page) / kPage] = static_cast<unsigned char>(cls);
  heap.next[cls] = page;
  heap.end[cls] = page + kPage;
  return true;
}

inline __attribute__((always_inline)) void* small_new(std::size_t n) {
  if (n > kMaxSmall) return std::malloc(n);
  const std::size_t cls = n == 0 ? 1 : (n + kStep - 1) / kStep;
  if (FreeBlock* b = heap.free[cls]) {
    heap.free[cls] = b->next;
    return b;
  }
  const std::size_t size = cls * kStep;
  if (static_cast<std::size_t>(heap.end[cls] - heap.next[cls]) < size && !new_page(cls)) return nullptr;
  void* p = heap.next[cls];
  heap.next[cls] += size;
  return p;
}

inline __attribute__((always_inline)) void small_delete(void* p) {
  if (p == nullptr) return;
  const unsigned cls = heap.page_class[reinterpret_cast<std::uintptr_t>(p) / kPage];
  if (cls == 0) return std::free(p);
  auto* b = static_cast<FreeBlock*>(p);
  b->next = heap.free[cls];
  heap.free[cls] = b;
}

inline __attribute__((always_inline)) void* small_new_or_throw(std::size_t n) {
  if (void* p = small_new(n)) return p;
  throw std::bad_alloc();
}

}  // namespace

// Out of line (each in one piece): inlined at every call site, the code grows by a seventh.
__attribute__((noinline)) void* operator new(std::size_t n) { return small_new_or_throw(n); }
__attribute__((noinline)) void* operator new[](std::size_t n) { return small_new_or_throw(n); }
__attribute__((noinline)) void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return small_new(n); }
__attribute__((noinline)) void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return small_new(n); }
__attribute__((noinline)) void operator delete(void* p) noexcept { small_delete(p); }
__attribute__((noinline)) void operator delete[](void* p) noexcept { small_delete(p); }
__attribute__((noinline)) void operator delete(void* p, std::size_t) noexcept { small_delete(p); }
__attribute__((noinline)) void operator delete[](void* p, std::size_t) noexcept { small_delete(p); }
__attribute__((noinline)) void operator delete(void* p, const std::nothrow_t&) noexcept { small_delete(p); }
__attribute__((noinline)) void operator delete[](void* p, const std::nothrow_t&) noexcept { small_delete(p); }
