#include "vram/plan/solve.hpp"

#include <algorithm>

#include "vram/budget/weights.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"

namespace vram {

std::string_view setting_path(Setting setting) {
  switch (setting) {
    case Setting::context: return "/inference/context";
    case Setting::concurrency: return "/inference/concurrency";
    case Setting::n_gpu_layers: return "/inference/llama_cpp/n_gpu_layers";
    case Setting::seq_len: return "/training/seq_len";
    case Setting::micro_batch: return "/training/micro_batch";
  }
  return "";
}

void apply_setting(Scenario& s, Setting setting, std::int64_t value) {
  if (setting == Setting::seq_len || setting == Setting::micro_batch) {
    TrainingSettings& t = std::get<TrainingWorkload>(s.settings).training;
    if (setting == Setting::micro_batch) {
      t.micro_batch = value;
      return;
    }
    // Context parallelism splits a sequence evenly: a length rounds down to a multiple of it.
    const std::int64_t cp = std::max<std::int64_t>(1, t.context_parallel);
    t.seq_len = std::max(cp, value / cp * cp);
    return;
  }
  InferenceSettings& inf = s.inference();
  switch (setting) {
    case Setting::context: inf.context = value; return;
    case Setting::concurrency:
      inf.concurrency = value;
      inf.llama_cpp.n_seq_max = value;  // llama-server serves `concurrency` sequences in n_seq_max slots
      return;
    case Setting::n_gpu_layers: inf.llama_cpp.n_gpu_layers = value; return;
    case Setting::seq_len:
    case Setting::micro_batch: return;  // training settings, set above
  }
}

namespace {

/// The verdict at one value; figures beyond any real system do not fit.
bool fits_at(Scenario& t, Setting setting, std::int64_t value, WeightsMemo* memo) {
  apply_setting(t, setting, value);
  try {
    return estimate(t, {false, memo}).fits;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace

std::optional<std::int64_t> largest_fitting(const Scenario& s, Setting setting, SearchRange range,
                                            WeightsMemo* memo_in) {
  WeightsMemo local;
  WeightsMemo* memo = memo_in ? memo_in : &local;
  Scenario t = s;
  auto ok = [&](std::int64_t v) { return fits_at(t, setting, v, memo); };
  const std::int64_t top = std::max(range.lo, range.hi);
  if (!ok(range.lo)) return std::nullopt;
  std::int64_t lo = range.lo, hi = top;  // invariant: ok(lo); hi untested or failing
  if (range.doubling) {
    for (hi = std::min(top, std::max<std::int64_t>(lo + 1, 2 * lo)); hi < top && ok(hi);
         hi = std::min(top, 2 * hi))
      lo = hi;
  }
  if (ok(hi)) return hi;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (ok(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace vram
