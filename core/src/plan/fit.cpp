#include "vram/plan/fit.hpp"

#include <algorithm>

namespace vram {

FitVerdict fit_verdict(const Report& r, Bytes capacity, double headroom) {
  FitVerdict v;
  if (r.reservation) {
    for (const auto& c : r.components) {
      if (c.outside_reservation) v.outside += c.bytes;
    }
    // The reservation plus what lives beyond it, never more than the card.
    const Bytes beyond = capacity - *r.reservation;
    v.usable = *r.reservation + std::min(v.outside, std::max(beyond, Bytes{}));
    v.free = v.usable - r.total;
    v.fits = v.free >= Bytes{} && v.outside <= beyond && r.engine_admits;
    return v;
  }
  v.usable = scale_floor(capacity, 1.0 - headroom);
  v.free = v.usable - r.total;
  v.fits = v.free >= Bytes{} && r.engine_admits;
  return v;
}

void apply_fit(Report& r, Bytes capacity, double headroom) {
  const FitVerdict v = fit_verdict(r, capacity, headroom);
  r.capacity = capacity;
  r.usable = v.usable;
  r.free = v.free;
  r.fits = v.fits;
}

}  // namespace vram
