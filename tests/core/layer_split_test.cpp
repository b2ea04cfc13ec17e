#include "vram/parallel/layer_split.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace vram;
using parallel::kHost;

namespace {

/// The device of every layer, then the output layer, as one list (kHost = -1 for the CPU).
std::vector<int> devices(const parallel::LayerMap& m) {
  std::vector<int> d = m.layer_device;
  d.push_back(m.output_device);
  return d;
}

/// `n` copies of `device`.
std::vector<int> run(int device, int n) {
  return std::vector<int>(static_cast<std::size_t>(n), device);
}

std::vector<int> concat(std::initializer_list<std::vector<int>> parts) {
  std::vector<int> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace

TEST_CASE("split points are the running share of the proportions, in float", "[layer_split]") {
  CHECK(parallel::split_points({1, 1}) == std::vector<float>{0.5f, 1.0f});
  CHECK(parallel::split_points({3, 1}) == std::vector<float>{0.75f, 1.0f});
  CHECK(parallel::split_points({1, 2, 1}) == std::vector<float>{0.25f, 0.75f, 1.0f});
  // 1/3 and 2/3 as float division gives them.
  CHECK(parallel::split_points({1, 1, 1}) == std::vector<float>{1.0f / 3.0f, 2.0f / 3.0f, 1.0f});
  // All zero is llama.cpp's "by free memory": equal on identical GPUs.
  CHECK(parallel::split_points({0, 0}) == std::vector<float>{0.5f, 1.0f});
}

TEST_CASE("two equal GPUs: 33 slots, GPU 0 while il/33 < 0.5", "[layer_split]") {
  // 32 layers + output, n_gpu_layers -1: i_gpu_start 0, act 33. 16/33 = 0.485 → GPU 0; 17/33 = 0.515 → GPU 1.
  const auto m = parallel::assign_layers(32, -1, parallel::split_points({1, 1}));
  CHECK(devices(m) == concat({run(0, 17), run(1, 15), {1}}));
  CHECK(m.range(0) == std::pair<std::int64_t, std::int64_t>{0, 17});
  CHECK(m.range(1) == std::pair<std::int64_t, std::int64_t>{17, 32});
  CHECK(m.layers_on(1) == 15);
  CHECK(m.first_gpu_layer == 0);
  // 80 layers (Llama-3.1-70B), -ngl 99: act = 81; 40/81 = 0.494 → GPU 0, 41/81 = 0.506 → GPU 1.
  const auto m70 = parallel::assign_layers(80, 99, parallel::split_points({1, 1}));
  CHECK(m70.layers_on(0) == 41);
  CHECK(m70.layers_on(1) == 39);
  CHECK(m70.output_device == 1);
}

TEST_CASE("three equal GPUs: a slot exactly on a split point goes to the next GPU", "[layer_split]") {
  // Splits {1/3, 2/3, 1} (float). 11/33 equals the float 1/3 and upper_bound passes it: GPU 1.
  // 22/33 equals the float 2/3: GPU 2. So 0–10 | 11–21 | 22–31 + output.
  const auto m = parallel::assign_layers(32, -1, parallel::split_points({1, 1, 1}));
  CHECK(devices(m) == concat({run(0, 11), run(1, 11), run(2, 10), {2}}));
}

TEST_CASE("explicit tensor_split for two and three GPUs", "[layer_split]") {
  // {3, 1}: il/33 < 0.75 up to il = 24 (0.727); 25/33 = 0.758 → GPU 1.
  CHECK(devices(parallel::assign_layers(32, -1, parallel::split_points({3, 1}))) ==
        concat({run(0, 25), run(1, 7), {1}}));
  // {1, 2, 1}: splits {0.25, 0.75, 1}: il <= 8 (8/33 = 0.242) GPU 0, il <= 24 GPU 1, the rest GPU 2.
  CHECK(devices(parallel::assign_layers(32, -1, parallel::split_points({1, 2, 1}))) ==
        concat({run(0, 9), run(1, 16), run(2, 7), {2}}));
  // A zero share gets no layer: {1, 0, 1} → splits {0.5, 0.5, 1}.
  CHECK(devices(parallel::assign_layers(32, -1, parallel::split_points({1, 0, 1}))) ==
        concat({run(0, 17), run(2, 15), {2}}));
}

TEST_CASE("n_gpu_layers keeps the first n_layer - n_gpu_layers layers on the CPU", "[layer_split]") {
  // 16 of 32 on two GPUs: i_gpu_start 16, act 16; (il - 16)/16 < 0.5 for il < 24; output slot 32: 16 >= 16 → CPU.
  const auto half = parallel::assign_layers(32, 16, parallel::split_points({1, 1}));
  CHECK(devices(half) == concat({run(kHost, 16), run(0, 8), run(1, 8), {kHost}}));
  CHECK(half.first_gpu_layer == 16);
  // n_layer layers: every repeating layer, not the output; n_layer + 1: the output too; 0: nothing.
  CHECK(parallel::assign_layers(32, 32, {1.0f}).output_device == kHost);
  CHECK(parallel::assign_layers(32, 33, {1.0f}).output_device == 0);
  CHECK(devices(parallel::assign_layers(32, 0, {1.0f})) == run(kHost, 33));
  CHECK(parallel::assign_layers(32, 0, {1.0f}).first_gpu_layer == 32);
}

TEST_CASE("row split: slices rounded down to the MMQ tile rows, the last GPU takes the rest", "[layer_split]") {
  CHECK(parallel::row_split_starts({1, 1}) == std::vector<float>{0.0f, 0.5f});
  CHECK(parallel::row_split_starts({3, 1}) == std::vector<float>{0.0f, 0.75f});
  CHECK(parallel::row_rounding(89) == 128);  // Ada
  CHECK(parallel::row_rounding(61) == 64);   // Pascal (P40)
  CHECK(parallel::row_rounding(0) == 128);   // unknown
  const auto half = parallel::row_split_starts({1, 1});
  // 14,336 rows: 7,168 is a multiple of 128.
  CHECK(parallel::row_range(14336, half, 0, 128).high == 7168);
  CHECK(parallel::row_range(14336, half, 1, 128).low == 7168);
  CHECK(parallel::row_range(14336, half, 1, 128).high == 14336);
  // 1,000 rows: 500 rounds down to 384; GPU 1 holds 616.
  CHECK(parallel::row_range(1000, half, 0, 128).rows() == 384);
  CHECK(parallel::row_range(1000, half, 1, 128).rows() == 616);
  // Three GPUs, 4,096 rows: 1,365 → 1,280 and 2,730 → 2,688.
  const auto thirds = parallel::row_split_starts({1, 1, 1});
  CHECK(parallel::row_range(4096, thirds, 0, 128).rows() == 1280);
  CHECK(parallel::row_range(4096, thirds, 1, 128).rows() == 1408);
  CHECK(parallel::row_range(4096, thirds, 2, 128).rows() == 1408);
  // 8 router rows: GPU 0's slice would be empty.
  CHECK(parallel::row_range(8, half, 0, 128).rows() == 0);
}

TEST_CASE("the layer walk gives each layer the device llama.cpp's per-layer search gives it", "[layer_split]") {
  // llama.cpp (src/llama-model.cpp, load_tensors): for each slot il, the first split point
  // above il / act_gpu_layers in float, searched per layer with std::upper_bound.
  auto reference = [](std::int64_t n_layer, std::int64_t ngl, const std::vector<float>& splits) {
    const std::int64_t n = ngl < 0 ? n_layer + 1 : ngl;
    const std::int64_t start = std::max<std::int64_t>(n_layer - n, 0);
    const std::int64_t act = splits.empty() ? 0 : std::min(n, n_layer + 1);
    std::vector<int> out;
    for (std::int64_t il = 0; il <= n_layer; ++il) {
      if (il < start || il - start >= act) {
        out.push_back(kHost);
        continue;
      }
      const float at = static_cast<float>(il - start) / static_cast<float>(act);
      const auto it = std::upper_bound(splits.begin(), splits.end(), at);
      out.push_back(static_cast<int>(std::min<std::ptrdiff_t>(it - splits.begin(), std::ssize(splits) - 1)));
    }
    return out;
  };
  const std::vector<std::vector<double>> shares = {{1}, {1, 1}, {1, 1, 1}, {3, 1}, {1, 0, 1}, {0, 0},
                                                   {5, 3, 2, 1}, {1, 1, 1, 1, 1, 1, 1, 1}, {7, 0.5, 2}};
  int checked = 0;
  for (const auto& share : shares) {
    const std::vector<float> splits = parallel::split_points(share);
    for (std::int64_t n_layer : {1, 2, 3, 7, 32, 33, 61, 80, 126}) {
      for (std::int64_t ngl : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}, n_layer / 2, n_layer, n_layer + 1,
                               n_layer + 5}) {
        CAPTURE(share, n_layer, ngl);
        CHECK(devices(parallel::assign_layers(n_layer, ngl, splits)) == reference(n_layer, ngl, splits));
        ++checked;
      }
    }
  }
  CHECK(checked == 9 * 9 * 7);
}
