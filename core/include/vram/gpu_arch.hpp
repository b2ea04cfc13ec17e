// What a GPU's libraries choose their kernels and workspaces by, beyond the
// CUDA compute capability: the LLVM target of an AMD Instinct GPU.
#pragma once

#include <array>
#include <cstdint>

#include "vram/choice.hpp"

namespace vram {

/// AMD Instinct architectures by their LLVM target (torch's gcnArchName);
/// `none` for every GPU that is not driven through ROCm.
enum class RocmArch : std::uint8_t {
  none,
  gfx942,  ///< CDNA 3: MI300X, MI325X
  gfx950,  ///< CDNA 4: MI350X, MI355X
};

/// The names models/gpus.json spells them with (`gcn_arch`).
inline constexpr std::array<Choice<RocmArch>, 2> kRocmArchs{{{RocmArch::gfx942, "gfx942"}, {RocmArch::gfx950, "gfx950"}}};

}  // namespace vram
