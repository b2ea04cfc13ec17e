#include "vram/budget/term.hpp"

#include <algorithm>
#include <cmath>

namespace vram {

namespace detail {

namespace {
// Size classes of 128 B to 8 KiB (powers of two); larger blocks go to the
// general allocator. At most 64 free blocks are kept per class.
constexpr std::size_t kClasses = 7;
constexpr std::size_t kSmallest = 128;
constexpr std::size_t kKept = 64;

struct FreeBlock {
  FreeBlock* next;
};

struct Pool {
  FreeBlock* head[kClasses] = {};
  std::size_t count[kClasses] = {};
  ~Pool() {
    for (auto* h : head) {
      while (h) {
        FreeBlock* next = h->next;
        ::operator delete(h);
        h = next;
      }
    }
  }
};

Pool& pool() {
  thread_local Pool p;
  return p;
}

/// The class of a block of `bytes`, or kClasses when it is too large for the pool.
std::size_t size_class(std::size_t bytes) {
  std::size_t c = 0;
  for (std::size_t size = kSmallest; c < kClasses; ++c, size *= 2) {
    if (bytes <= size) return c;
  }
  return kClasses;
}
}  // namespace

void* pooled_allocate(std::size_t bytes) {
  const std::size_t c = size_class(bytes);
  if (c == kClasses) return ::operator new(bytes);
  Pool& p = pool();
  if (FreeBlock* b = p.head[c]) {
    p.head[c] = b->next;
    --p.count[c];
    return b;
  }
  return ::operator new(kSmallest << c);
}

void pooled_deallocate(void* ptr, std::size_t bytes) noexcept {
  const std::size_t c = size_class(bytes);
  Pool& p = pool();
  if (c == kClasses || p.count[c] >= kKept) {
    ::operator delete(ptr);
    return;
  }
  auto* b = static_cast<FreeBlock*>(ptr);
  b->next = p.head[c];
  p.head[c] = b;
  ++p.count[c];
}

}  // namespace detail

namespace {

/// Doubles at or beyond 2^63 do not convert to int64.
std::int64_t to_whole(double x, Rounding r) {
  switch (r) {
    case Rounding::floor: x = std::floor(x); break;
    case Rounding::ceil: x = std::ceil(x); break;
    case Rounding::nearest:
    case Rounding::exact: x = std::round(x); break;
  }
  if (!(std::fabs(x) < 9.2e18)) checked::overflow("scaled figure");
  return static_cast<std::int64_t>(x);
}

bool has_zero(const Factors& factors, const Terms& parts) {
  for (const auto& f : factors) {
    if (f.integer ? f.count == 0 : f.value == 0) return true;
  }
  for (const auto& p : parts) {
    if (p.bytes == Bytes{}) return true;
  }
  return false;
}

/// ∏ of the integer factors (count × scale) and the parts' bytes, checked.
std::int64_t integer_product(const Factors& factors, const Terms& parts) {
  std::int64_t p = 1;
  for (const auto& part : parts) p = checked::mul(p, part.bytes.in_bytes());
  for (const auto& f : factors) {
    if (f.integer) p = checked::mul(p, checked::mul(f.count, f.scale));
  }
  return p;
}

/// ∏ of the real factors (value × scale); 1 when there are none.
double real_product(const Factors& factors, bool& any) {
  double r = 1;
  any = false;
  for (const auto& f : factors) {
    if (!f.integer) {
      r *= f.value * static_cast<double>(f.scale);
      any = true;
    }
  }
  return r;
}

/// A zero factor or part makes the product zero before any overflow could
/// occur; otherwise the integer product (checked) times the real factors.
Bytes evaluate(const Factors& factors, const Terms& parts, Rounding rounding) {
  if (has_zero(factors, parts)) return Bytes{};
  std::int64_t whole = 1;
  double real = 1;
  bool any_real = false;
  for (const auto& part : parts) whole = checked::mul(whole, part.bytes.in_bytes());
  for (const auto& f : factors) {
    if (f.integer) {
      whole = checked::mul(whole, f.scale == 1 ? f.count : checked::mul(f.count, f.scale));
    } else {
      real *= f.value * static_cast<double>(f.scale);
      any_real = true;
    }
  }
  if (!any_real) return Bytes::of(whole);
  return Bytes::of(to_whole(static_cast<double>(whole) * real, rounding));
}

std::optional<ByteRange> summed_range(const Terms& parts, bool subtract_rest) {
  bool any = false;
  for (const auto& p : parts) any = any || p.range.has_value();
  if (!any || parts.empty()) return std::nullopt;
  auto low = [](const Term& t) { return t.range ? t.range->low : t.bytes; };
  auto high = [](const Term& t) { return t.range ? t.range->high : t.bytes; };
  ByteRange r{low(parts[0]), high(parts[0])};
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (subtract_rest) {
      r.low -= high(parts[i]);
      r.high -= low(parts[i]);
    } else {
      r.low += low(parts[i]);
      r.high += high(parts[i]);
    }
  }
  return r;
}

}  // namespace

Term Term::product(Factors factors, Rounding r) {
  return product({}, std::move(factors), r);
}

Term Term::product(Terms parts, Factors factors, Rounding r) {
  Term t;
  t.op = Op::product;
  t.rounding = r;
  t.bytes = evaluate(factors, parts, r);
  t.factors = std::move(factors);
  t.parts = std::move(parts);
  return t;
}

Term Term::shown_as(Bytes exact, Factors factors) {
  Term t;
  t.op = Op::product;
  t.rounding = Rounding::nearest;
  t.bytes = exact;
  t.factors = std::move(factors);
  return t;
}

Term Term::sum(Terms parts) {
  Term t;
  t.op = Op::sum;
  for (const auto& p : parts) t.bytes += p.bytes;
  t.range = summed_range(parts, false);
  t.parts = std::move(parts);
  return t;
}

Term Term::difference(Terms parts) {
  Term t;
  t.op = Op::difference;
  for (std::size_t i = 0; i < parts.size(); ++i) t.bytes = i == 0 ? parts[i].bytes : t.bytes - parts[i].bytes;
  t.range = summed_range(parts, true);
  t.parts = std::move(parts);
  return t;
}

Term Term::max_of(Terms parts) {
  Term t;
  t.op = Op::max;
  bool any_range = false;
  ByteRange r;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Term& p = parts[i];
    t.bytes = i == 0 ? p.bytes : std::max(t.bytes, p.bytes);
    const ByteRange pr = p.range.value_or(ByteRange{p.bytes, p.bytes});
    r = i == 0 ? pr : ByteRange{std::max(r.low, pr.low), std::max(r.high, pr.high)};
    any_range = any_range || p.range.has_value();
  }
  if (any_range) t.range = r;
  t.parts = std::move(parts);
  return t;
}

Term Term::given(Bytes b) {
  Term t;
  t.op = Op::given;
  t.bytes = b;
  return t;
}

const Term* Term::chosen() const {
  if (op != Op::max) return nullptr;
  for (const auto& p : parts) {
    if (p.bytes == bytes) return &p;
  }
  return nullptr;
}

namespace {
/// A sum that only groups figures (no name, note or range of its own).
bool plain_sum(const Term& t) {
  return t.op == Term::Op::sum && t.what.empty() && t.note.empty() && t.per.empty() && !t.range;
}
void flatten_into(Terms& out, Term&& t) {
  if (plain_sum(t)) {
    for (auto& p : t.parts) flatten_into(out, std::move(p));
    return;
  }
  if (t.bytes != Bytes{} || t.range) out.push_back(std::move(t));
}
}  // namespace

Term sum_nonzero(Terms parts) {
  if (parts.empty()) return Term::given(Bytes{});
  // All zero: the first part stands for them (a formula that shows why it is zero).
  const bool all_zero = std::all_of(parts.begin(), parts.end(), [](const Term& p) { return p.bytes == Bytes{} && !p.range; });
  if (all_zero) return std::move(parts.front());
  if (std::none_of(parts.begin(), parts.end(), plain_sum)) {
    // Nothing to flatten: drop the zero parts in place (no second vector).
    std::erase_if(parts, [](const Term& p) { return p.bytes == Bytes{} && !p.range; });
    if (parts.size() == 1) return std::move(parts.front());
    return Term::sum(std::move(parts));
  }
  Terms kept;
  kept.reserve(parts.size());
  for (auto& p : parts) flatten_into(kept, std::move(p));
  if (kept.size() == 1) return std::move(kept.front());
  return Term::sum(std::move(kept));
}

double unrounded_product(const Term& t) {
  double x = 1;
  for (const auto& p : t.parts) x *= static_cast<double>(p.bytes.in_bytes());
  for (const auto& f : t.factors) {
    x *= (f.integer ? static_cast<double>(f.count) : f.value) * static_cast<double>(f.scale);
  }
  return x;
}

namespace {
bool node_holds(const Term& t) {
  switch (t.op) {
    case Term::Op::product: {
      bool any_real = false;
      real_product(t.factors, any_real);
      if (!any_real) {
        try {
          return has_zero(t.factors, t.parts) ? t.bytes == Bytes{}
                                              : t.bytes.in_bytes() == integer_product(t.factors, t.parts);
        } catch (const ArithmeticOverflow&) {
          return false;
        }
      }
      const double x = unrounded_product(t);
      return std::fabs(x - static_cast<double>(t.bytes.in_bytes())) <= 1.0 + 1e-12 * std::fabs(x);
    }
    case Term::Op::sum: return Term::sum(t.parts).bytes == t.bytes;
    case Term::Op::difference: return Term::difference(t.parts).bytes == t.bytes;
    case Term::Op::max: return !t.parts.empty() && t.chosen() != nullptr && Term::max_of(t.parts).bytes == t.bytes;
    case Term::Op::given: return true;
  }
  return false;
}
}  // namespace

bool consistent(const Term& t) {
  if (!node_holds(t)) return false;
  if (t.range && !(t.range->low <= t.bytes && t.bytes <= t.range->high)) return false;
  return std::all_of(t.parts.begin(), t.parts.end(), [](const Term& p) { return consistent(p); });
}

ByteRange ratio_range(Bytes value, double low_ratio, double high_ratio) {
  const double v = static_cast<double>(value.in_bytes());
  return {Bytes::of(to_whole(v * low_ratio, Rounding::floor)), Bytes::of(to_whole(v * high_ratio, Rounding::ceil))};
}

ByteRange gib_range(double low, double high) {
  return {Bytes::from_fraction(low, kGiB), Bytes::from_fraction(high, kGiB)};
}

}  // namespace vram
