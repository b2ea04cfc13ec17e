// Budget category: model weights.
//
// The article's first step: parameters x bytes per parameter, where "bytes per
// parameter" is the loader's real layout (formats.hpp), applied tensor by tensor
// so unquantized embeddings, norms and heads stay 16-bit.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "vram/budget/term.hpp"
#include "vram/formats.hpp"
#include "vram/model.hpp"
#include "vram/units.hpp"

namespace vram {

/// Which tensors one GPU holds.
struct WeightPlacement {
  std::int64_t tensor_parallel = 1;
  std::int32_t first_layer = 0;                                       ///< first decoder layer on this GPU
  std::int32_t end_layer = std::numeric_limits<std::int32_t>::max();  ///< one past the last
  bool embedding = true;                                              ///< token embedding (first pipeline stage)
  bool head = true;                                                   ///< final norm + lm_head (last pipeline stage)
  bool vision = true;                                                 ///< vision tower (multimodal models, first stage)
  bool mtp = false;                 ///< multi-token-prediction layers (speculative decoding only)
  std::int64_t vocab_multiple = 1;  ///< vocabulary rows padded to this multiple before sharding
  /// Expert-parallel ranks: each holds whole experts, the first ceil(E / ep) of
  /// them on rank 0, instead of a tensor-parallel slice of every expert.
  std::int64_t expert_parallel = 1;
  /// Routed-expert matrices stored padded, as a MoE kernel lays them out: the
  /// expert intermediate width (per rank) rounded up to a multiple of the
  /// first, the hidden width to a multiple of the second (1: no padding).
  std::int64_t expert_intermediate_multiple = 1;
  std::int64_t expert_hidden_multiple = 1;
};

/// A routed expert's weight or bias (stacked `count` = experts).
bool is_expert(const Tensor& t, const Architecture& arch);

/// Elements of `t` held by one tensor-parallel rank (vectors split along their length).
struct ShardShape {
  std::int64_t rows;
  std::int64_t cols;
};
ShardShape shard_shape(const Tensor& t, const Architecture& arch, std::int64_t tensor_parallel,
                       std::int64_t vocab_multiple);
/// One rank's shard of a routed-expert matrix as stored with the placement's
/// padding: gate/up [intermediate x hidden], down [hidden x intermediate].
ShardShape padded_expert_shape(const Tensor& t, ShardShape s, const WeightPlacement& p);

/// Weight bytes on one GPU, with a per-codec breakdown for the formula.
struct WeightsEstimate {
  Bytes bytes;
  std::int64_t params = 0;  ///< parameters counted (whole tensors, before sharding)
  struct Part {
    std::string codec;
    std::int64_t params;  ///< elements on this GPU stored with `codec`
    Bytes bytes;
  };
  std::vector<Part> parts;
};

WeightsEstimate weights_on_gpu(const Model& model, const WeightFormat& format, const WeightPlacement& placement);

bool operator==(const WeightPlacement& a, const WeightPlacement& b);

/// Remembers weights_on_gpu results for one model and format, so a sweep over
/// contexts walks the tensor inventory once per placement. Owned by the caller;
/// it must not outlive the model and format it was used with.
class WeightsMemo {
 public:
  const WeightsEstimate& get(const Model& model, const WeightFormat& format, const WeightPlacement& placement);

 private:
  const Model* model_ = nullptr;
  const WeightFormat* format_ = nullptr;
  std::deque<std::pair<WeightPlacement, WeightsEstimate>> entries_;  // stable references
};

/// weights_on_gpu through `memo` when one is given.
WeightsEstimate weights_for(const Model& model, const WeightFormat& format, const WeightPlacement& placement,
                            WeightsMemo* memo);

/// The weights as a term: params × bytes per param for each codec, summed. A
/// codec whose bytes are not a whole multiple of its params (scales, packed
/// blocks) shows its average bytes per param to four decimals; the exact bytes
/// are the per-tensor sum. The codec names point into `w`, which must outlive the term.
Term weights_term(const WeightsEstimate& w);

/// Article example: params x bytes/param, rendered (io::render of weights_term).
/// "13,000,000,000 params × 2 B (bf16) = 26,000,000,000 B ≈ 24.21 GiB"
std::string weights_formula(const WeightsEstimate& w);

}  // namespace vram
