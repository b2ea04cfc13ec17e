// How llama.cpp divides one model over several GPUs.
//
// --split-mode layer (the default) gives each GPU a contiguous run of whole
// layers in proportion to --tensor-split; --split-mode row also cuts every 2D
// weight matrix of a layer into row slices, one per GPU. Both rules are
// computed here exactly as llama.cpp computes them, in single precision, so
// that a boundary layer lands on the same GPU as in the real loader.
//
// Sources (ggml-org/llama.cpp, read at commit 00342301d01a):
//   src/llama-model.cpp llama_model::load_tensors: the split points (running
//     sum of the proportions over their total, float), i_gpu_start =
//     max(n_layer − n_gpu_layers, 0), act_gpu_layers = min(n_gpu_layers,
//     n_layer + 1), and layer il on GPU upper_bound(splits, float(il −
//     i_gpu_start) / act_gpu_layers); the output layer is slot il = n_layer.
//   ggml/src/ggml-cuda/ggml-cuda.cu, the CUDA split buffer: get_row_split
//     (row_low = nrows × start[id], row_high = nrows × start[id + 1], both
//     rounded down to the row rounding, the last GPU up to nrows) and
//     get_row_rounding (the largest mmq_y of the GPUs that get rows: 128 on
//     Volta and newer, 64 before).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace vram::parallel {

/// The device index of the CPU (host memory) in a layer map.
inline constexpr int kHost = -1;

/// Split points: the running sum of `proportions` divided by their total, in
/// float as llama.cpp computes them. {1, 1} → {0.5, 1}; {3, 1} → {0.75, 1}.
/// All proportions zero (llama.cpp's "by free memory") counts as equal ones.
std::vector<float> split_points(const std::vector<double>& proportions);

/// Where each layer of a model sits.
struct LayerMap {
  std::vector<int> layer_device;     ///< device of each repeating layer, kHost for the CPU
  int output_device = kHost;         ///< device of the output layer (final norm and lm_head)
  std::int64_t first_gpu_layer = 0;  ///< layers [0, first_gpu_layer) stay on the CPU

  /// The layers [first, end) on `device` (a contiguous run; first == end when none).
  std::pair<std::int64_t, std::int64_t> range(int device) const;
  std::int64_t layers_on(int device) const;
};

/// llama.cpp's layer assignment for `n_layer` repeating layers, `n_gpu_layers`
/// (−1 = all layers and the output layer) and the split points of the GPUs.
/// 32 layers, all offloaded, two equal GPUs: slot il goes to GPU 0 while
/// il / 33 < 0.5, so GPU 0 holds layers 0–16, GPU 1 layers 17–31 and the output.
LayerMap assign_layers(std::int64_t n_layer, std::int64_t n_gpu_layers, const std::vector<float>& splits);

/// Row split: where each GPU's slice starts, as a fraction of the rows (the
/// running sum before it over the total, float). {1, 1} → {0, 0.5}.
std::vector<float> row_split_starts(const std::vector<double>& proportions);

/// The row rounding of the CUDA split buffer for GPUs of one compute
/// capability (× 10; 0 when unknown): mmq_y, 128 from Volta (70) on, 64 before.
std::int64_t row_rounding(int compute_capability);

/// Rows [low, high) of a matrix of `rows` rows held by `device`.
struct RowRange {
  std::int64_t low = 0;
  std::int64_t high = 0;
  std::int64_t rows() const { return high - low; }
};
/// 14,336 rows on two equal GPUs, rounding 128: GPU 0 rows 0–7,167, GPU 1 7,168–14,335.
RowRange row_range(std::int64_t rows, const std::vector<float>& starts, std::size_t device, std::int64_t rounding);

}  // namespace vram::parallel
