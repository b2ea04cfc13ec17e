#include "vram/parallel/layer_split.hpp"

#include <algorithm>

namespace vram::parallel {

namespace {

/// The proportions as llama.cpp holds them (float), equal ones when all are zero.
std::vector<float> as_float(const std::vector<double>& proportions) {
  std::vector<float> w(proportions.size());
  std::transform(proportions.begin(), proportions.end(), w.begin(),
                 [](double p) { return static_cast<float>(std::max(p, 0.0)); });
  if (std::all_of(w.begin(), w.end(), [](float x) { return x == 0.0f; })) std::fill(w.begin(), w.end(), 1.0f);
  return w;
}

}  // namespace

std::vector<float> split_points(const std::vector<double>& proportions) {
  std::vector<float> splits = as_float(proportions);
  float sum = 0.0f;
  for (float& s : splits) {
    sum += s;
    s = sum;
  }
  for (float& s : splits) s /= sum;
  return splits;
}

std::pair<std::int64_t, std::int64_t> LayerMap::range(int device) const {
  const auto first = std::find(layer_device.begin(), layer_device.end(), device);
  if (first == layer_device.end()) return {0, 0};
  const auto end = std::find_if(first, layer_device.end(), [&](int d) { return d != device; });
  return {first - layer_device.begin(), end - layer_device.begin()};
}

std::int64_t LayerMap::layers_on(int device) const {
  return std::count(layer_device.begin(), layer_device.end(), device);
}

LayerMap assign_layers(std::int64_t n_layer, std::int64_t n_gpu_layers, const std::vector<float>& splits) {
  LayerMap map;
  const std::int64_t ngl = n_gpu_layers < 0 ? n_layer + 1 : n_gpu_layers;
  const std::int64_t i_gpu_start = std::max<std::int64_t>(n_layer - ngl, 0);
  const std::int64_t act_gpu_layers = splits.empty() ? 0 : std::min(ngl, n_layer + 1);
  // The layer's position as llama.cpp computes it (a float fraction of the offloaded layers)
  // rises with il, so the split points at or below it are counted forward, not searched
  // again per layer: that count is upper_bound(splits, at) - begin, the device.
  std::ptrdiff_t passed = 0;  // split points <= the current fraction
  auto device_of = [&](std::int64_t il) {
    if (il < i_gpu_start || il - i_gpu_start >= act_gpu_layers) return kHost;
    const float at = static_cast<float>(il - i_gpu_start) / static_cast<float>(act_gpu_layers);
    while (passed < std::ssize(splits) && !(at < splits[static_cast<std::size_t>(passed)])) ++passed;
    // A fraction past the last split point cannot occur (it is below 1); keep it on the last GPU.
    return static_cast<int>(std::min<std::ptrdiff_t>(passed, std::ssize(splits) - 1));
  };
  map.layer_device.resize(static_cast<std::size_t>(std::max<std::int64_t>(n_layer, 0)));
  for (std::int64_t il = 0; il < n_layer; ++il) map.layer_device[static_cast<std::size_t>(il)] = device_of(il);
  map.output_device = device_of(n_layer);
  map.first_gpu_layer = splits.empty() ? n_layer : std::min(i_gpu_start, n_layer);
  return map;
}

std::vector<float> row_split_starts(const std::vector<double>& proportions) {
  std::vector<float> starts = as_float(proportions);
  float sum = 0.0f;
  for (float& s : starts) {
    const float own = s;
    s = sum;
    sum += own;
  }
  for (float& s : starts) s /= sum;
  return starts;
}

std::int64_t row_rounding(int compute_capability) {
  // ggml-cuda get_mmq_y_host: 128 rows per MMQ tile from Volta on, 64 on older GPUs.
  return compute_capability > 0 && compute_capability < 70 ? 64 : 128;
}

RowRange row_range(std::int64_t rows, const std::vector<float>& starts, std::size_t device, std::int64_t rounding) {
  auto at = [&](std::size_t d) {
    const auto r = static_cast<std::int64_t>(static_cast<float>(rows) * starts[d]);
    return r - r % rounding;
  };
  RowRange range;
  range.low = device == 0 ? 0 : at(device);
  range.high = device + 1 == starts.size() ? rows : at(device + 1);
  return range;
}

}  // namespace vram::parallel
