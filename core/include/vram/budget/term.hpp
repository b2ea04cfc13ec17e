// A budget term: the bytes of one memory category together with the figures
// that produced them, a cited source and, where the figure is calibrated
// rather than derived, the range it is believed to lie in.
//
// Terms hold figures only. The formula text a report shows is rendered from
// the factors by `io::render` (io/render.hpp), so the number in the text is the
// number in the arithmetic; building a term never builds a string.
//
//   product    bytes = ∏ factors × ∏ parts; integers, or one real factor with a
//              stated rounding (floor, ceil, nearest)
//   sum        bytes = Σ parts
//   difference bytes = parts[0] − Σ parts[1..]
//   max        bytes = the largest part; the others are named as lower
//   given      a measured or calibrated constant (with its range)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "vram/units.hpp"

namespace vram {

/// What a calibrated figure may be, in bytes per GPU (CONTRACT 1.1 `range`):
/// low <= value <= high.
struct ByteRange {
  Bytes low;
  Bytes high;
  bool operator==(const ByteRange&) const = default;
};

namespace detail {
/// Blocks for the factor and part lists of terms, recycled per thread: every
/// estimate of a sweep builds and drops a few dozen small lists, and a
/// general-purpose allocator would then cost more than the arithmetic.
void* pooled_allocate(std::size_t bytes);
void pooled_deallocate(void* p, std::size_t bytes) noexcept;
}  // namespace detail

/// A std::allocator that draws on the per-thread pool above.
template <typename T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  constexpr PoolAllocator(const PoolAllocator<U>&) noexcept {}  // NOLINT: rebinding
  T* allocate(std::size_t n) { return static_cast<T*>(detail::pooled_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { detail::pooled_deallocate(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const PoolAllocator<U>&) const noexcept {
    return true;
  }
};

/// How a product with a real factor becomes whole bytes.
enum class Rounding : std::uint8_t { exact, floor, ceil, nearest };

/// One multiplicand of a product: a count ("8,192 tokens"), a size ("2 B"),
/// or one real number ("0.9 gpu_memory_utilization", "0.016 GiB").
struct Factor {
  double value = 0;         ///< the figure as shown (for integers, `count` as a double)
  std::int64_t count = 0;   ///< the figure itself when `integer` (exact at any size)
  std::string_view unit;    ///< a literal; where `templated`, each "{}" takes the next of `args`
  bool integer = true;
  bool templated = false;   ///< set by with(): the unit has "{}" holes (others are written as they are)
  std::int64_t scale = 1;   ///< what one unit stands for: 2^30 for "GiB", 1 otherwise
  std::string_view tag;     ///< a name shown in parentheses after the unit ("bf16"); must outlive the term
  std::array<std::int64_t, 2> args{};

  /// `n unit`, e.g. count(8192, "tokens").
  static constexpr Factor of(std::int64_t n, std::string_view unit, std::string_view tag = {}) {
    Factor f;
    f.value = static_cast<double>(n);
    f.count = n;
    f.unit = unit;
    f.tag = tag;
    return f;
  }
  /// `n B (tag)`: a size in bytes.
  static constexpr Factor bytes(std::int64_t n, std::string_view tag = {}) { return of(n, "B", tag); }
  /// A whole number of MiB, shown as "32 MiB …".
  static constexpr Factor mib(std::int64_t n, std::string_view unit = "MiB") {
    Factor f = of(n, unit);
    f.scale = std::int64_t{1} << 20;
    return f;
  }
  /// A real number, e.g. real(0.9, "gpu_memory_utilization").
  static constexpr Factor real(double v, std::string_view unit, std::string_view tag = {}) {
    Factor f;
    f.value = v;
    f.unit = unit;
    f.integer = false;
    f.tag = tag;
    return f;
  }
  /// A real amount of GiB (a measured constant), shown as "0.25 GiB".
  static constexpr Factor gib(double v, std::string_view unit = "GiB") {
    Factor f = real(v, unit);
    f.scale = std::int64_t{1} << 30;
    return f;
  }
  /// The same factor with values for the "{}" of its unit.
  constexpr Factor with(std::int64_t a, std::int64_t b = 0) const {
    Factor f = *this;
    f.args = {a, b};
    f.templated = true;
    return f;
  }
};

struct Term;
using Factors = std::vector<Factor, PoolAllocator<Factor>>;
using Terms = std::vector<Term, PoolAllocator<Term>>;

struct Term {
  enum class Op : std::uint8_t { product, sum, difference, max, given };

  Bytes bytes;
  Op op = Op::given;
  Rounding rounding = Rounding::exact;  ///< products with a real factor
  Factors factors;
  Terms parts;
  std::string_view source;  ///< paper, documentation page or code path pinned to a version
  std::optional<ByteRange> range;
  std::string_view what;  ///< names the term in its formula ("sampler step"); a literal
  std::string_view note;  ///< follows the formula; each "{}" takes the next of `note_args`
  std::array<std::int64_t, 4> note_args{};
  std::string_view per;  ///< "token": the figure is bytes per one of these
  Unit shown = kGiB;     ///< the unit of the rounded figure after "≈"

  /// ∏ factors (checked); with a real factor, rounded as `r`.
  static Term product(Factors factors, Rounding r = Rounding::exact);
  /// ∏ factors × ∏ parts' bytes: a derived figure scaled by counts or a ratio.
  static Term product(Terms parts, Factors factors, Rounding r = Rounding::exact);
  /// A product whose exact bytes are known from elsewhere (a per-tensor sum);
  /// the factors show it to within their rounding. `consistent` checks that.
  static Term shown_as(Bytes exact, Factors factors);
  static Term sum(Terms parts);
  static Term difference(Terms parts);
  static Term max_of(Terms parts);
  /// A constant, shown as its exact bytes.
  static Term given(Bytes b);

  /// The part a max term takes (its largest), or nullptr for other terms.
  const Term* chosen() const;

  // Chained setters on temporaries: Term::product(...).named("x").cite(src).
  Term&& named(std::string_view w) && {
    what = w;
    return std::move(*this);
  }
  Term&& cite(std::string_view s) && {
    source = s;
    return std::move(*this);
  }
  Term&& within(ByteRange r) && {
    range = r;
    return std::move(*this);
  }
  Term&& noted(std::string_view n, std::array<std::int64_t, 4> args = {}) && {
    note = n;
    note_args = args;
    return std::move(*this);
  }
  Term&& per_unit(std::string_view p) && {
    per = p;
    return std::move(*this);
  }
  Term&& shown_in(Unit u) && {
    shown = u;
    return std::move(*this);
  }
};

/// Moves its arguments into a vector (an initializer list would copy them).
template <typename... T>
Terms terms(T&&... t) {
  Terms v;
  v.reserve(sizeof...(T));
  (v.push_back(std::move(t)), ...);
  return v;
}

/// A sum of the non-zero parts; one part alone is returned as it is.
Term sum_nonzero(Terms parts);

/// The figure of a product's factors and parts before rounding (real), for checks.
double unrounded_product(const Term& t);

/// True when every node holds: products equal their factors (within the
/// rounding of a real factor), sums and differences their parts, a max its
/// largest part, and a range contains its value.
bool consistent(const Term& t);

/// [value × low_ratio, value × high_ratio], rounded outwards to whole bytes:
/// the range of a figure calibrated to within those ratios.
ByteRange ratio_range(Bytes value, double low_ratio, double high_ratio);

/// [low, high] GiB, rounded to the nearest byte.
ByteRange gib_range(double low, double high);

}  // namespace vram
