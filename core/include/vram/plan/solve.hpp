// One search for every "largest X that fits" question: a setting of the
// scenario, the range to search, and the fit verdict (plan/fit.hpp). The
// verdict is monotone in each setting listed here (more tokens, sequences or
// layers on the GPU never need less memory), so a bisection finds the
// boundary exactly. Workloads add settings to `Setting`, not loops.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram {

class WeightsMemo;

/// A scenario setting a solver may vary.
enum class Setting : std::uint8_t {
  context,       ///< inference.context (tokens per sequence)
  concurrency,   ///< inference.concurrency (llama.cpp's n_seq_max follows it)
  n_gpu_layers,  ///< inference.llama_cpp.n_gpu_layers
  seq_len,       ///< training.seq_len (tokens per sample; context parallelism divides it)
  micro_batch,   ///< training.micro_batch (samples per GPU per step)
  image_size,    ///< generation.height in size multiples, generation.width at the base's aspect ratio
  frames,        ///< generation.frames as latent frames (the VAE's temporal multiple + 1)
  gen_batch,     ///< generation.batch (images or videos per call)
};

/// The estimate without its text, or nullopt where the figures leave any real
/// system (the estimator refuses them as absurd): such a setting does not fit.
std::optional<Report> figures_only(const Scenario& s, WeightsMemo* memo);

/// The scenario field a setting is, as a JSON pointer ("/inference/context").
std::string_view setting_path(Setting setting);

/// `s` with `setting` set to `value` (and whatever the engine ties to it).
/// `base` is the scenario the search started from: a setting that keeps one
/// of its proportions (image_size keeps the width : height of its generation
/// block, which must both be set) reads it there, so every probe keeps
/// exactly the same ratio whatever the order.
void apply_setting(Scenario& s, Setting setting, std::int64_t value, const Scenario& base);
/// apply_setting for the settings that read nothing from a base (all but image_size).
void apply_setting(Scenario& s, Setting setting, std::int64_t value);

/// The valid generation sizes as lattices the solvers step along (index 1 is the
/// smallest): heights and widths from a first value in steps of the VAE's spatial
/// factor × the denoiser's patch, frames from 1 in steps of the VAE's temporal
/// factor (1 for images). Allegro's tiled-only VAE starts each at one tile and
/// steps by its stride (kept a multiple of the size multiple).
struct SizeSteps {
  std::int64_t pixels = 8;  ///< height step
  std::int64_t frames = 1;  ///< frame step
  std::int64_t first_height = 8, first_width = 8, width_step = 8, first_frames = 1;

  std::int64_t height_at(std::int64_t index) const;
  std::int64_t frames_at(std::int64_t index) const;
  /// The index of the largest lattice value at most `v` (1 below the first).
  std::int64_t height_index(std::int64_t v) const;
  std::int64_t frame_index(std::int64_t v) const;
  /// The lattice width nearest `target` (the first one below it).
  std::int64_t width_near(double target) const;
};
SizeSteps size_steps(const Scenario& s);

/// How to search: bisection over [lo, hi], or doubling from lo up to hi
/// first (for settings whose answer is usually far below the limit).
struct SearchRange {
  std::int64_t lo = 1;
  std::int64_t hi = 1;
  bool doubling = false;
};

/// A value whose verdict is already known (the scenario's own setting, from
/// the estimate in hand): the search starts from it instead of estimating it.
struct KnownVerdict {
  std::int64_t value = 0;
  bool fits = false;
  std::optional<double> margin;  ///< usable − total, bytes, where it agrees with the verdict
};

/// The answer of a search and the estimates it took.
struct SearchResult {
  std::optional<std::int64_t> value;  ///< the largest fitting value; nullopt when not even `lo` fits
  int estimates = 0;
};

/// The largest value in [lo, hi] at which the scenario fits. The search keeps
/// a bracket (the largest value known to fit, the smallest known not to) and
/// probes where the margin (usable − total, which the budget's terms make
/// nearly linear in each setting) crosses zero: regula falsi between the two
/// ends, a secant from the two largest fitting values before a failing one is
/// known, bisection after two probes that did not halve the bracket, and
/// bisection alone where a verdict has no margin to follow (vLLM's KV
/// admission, figures refused as absurd). The bracket alone decides the
/// answer, so every probe order gives the same value as a plain bisection.
/// Never changes `s`.
SearchResult search_fitting(const Scenario& s, Setting setting, SearchRange range, WeightsMemo* memo = nullptr,
                            const std::optional<KnownVerdict>& known = std::nullopt);

/// search_fitting's value.
std::optional<std::int64_t> largest_fitting(const Scenario& s, Setting setting, SearchRange range,
                                            WeightsMemo* memo = nullptr);

}  // namespace vram
