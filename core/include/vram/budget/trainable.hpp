// What a training run updates: the trainable tensors on one GPU, as shapes.
//
// Model states (gradients, optimizer state, master weights) are counted over
// this set, tensor by tensor where a layout depends on the tensor (8-bit
// optimizer blocks, Adafactor's factored moments, the largest gradient alive
// under optimizer-in-backward).
#pragma once

#include <cstdint>
#include <vector>

#include "vram/units.hpp"

namespace vram {

/// `count` trainable tensors of rows × cols elements (a vector has rows = 1).
struct ParamBlock {
  std::int64_t rows = 1;
  std::int64_t cols = 1;
  std::int64_t count = 1;
  /// A weight matrix of a hidden (decoder) layer, not the embeddings or the
  /// output layer: what Muon updates (its frameworks hand every other
  /// parameter to AdamW).
  bool hidden_matrix = false;
  std::int64_t elements() const { return checked::product(rows, cols, count); }
  std::int64_t tensor_elements() const { return checked::mul(rows, cols); }
};

/// The trainable tensors on one GPU (after tensor and pipeline parallelism).
struct TrainableSet {
  std::vector<ParamBlock> blocks;
  std::int64_t params() const;
  /// Elements of the largest single tensor (0 when empty).
  std::int64_t largest_tensor() const;
  /// The largest hidden-layer matrix by elements (count 0 when there is none).
  ParamBlock largest_hidden_matrix() const;
};

}  // namespace vram
