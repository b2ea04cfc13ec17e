// The ladder of transformers behaviours that change generate()'s memory.
//
// Each mechanism is named by the 4.x minor version that introduced it (or
// whose change removed the older behaviour), with its source. A version inside
// [kHfOldestMinor, kHfNewestMinor] runs with exactly its mechanisms; one
// outside runs as the nearest end of the ladder, and the report says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace vram::transformers_engine {

/// The oldest and newest 4.x versions whose behaviour is modelled, and the one
/// the estimate follows when no version is given.
inline constexpr int kHfOldestMinor = 31;  ///< LlamaForCausalLM upcasts logits (`logits.float()`) from v4.31.0
inline constexpr int kHfNewestMinor = 57;
inline constexpr int kHfCurrentMinor = 56;

/// use_flash_attention_2=True (v4.34.0; attn_implementation="flash_attention_2" from v4.36.0).
inline constexpr int kFlashAttention2Since = 34;
/// cache_utils.py Cache / DynamicCache (v4.36.0); before, past_key_values were tuples grown with torch.cat.
inline constexpr int kCacheClassesSince = 36;
/// SDPA integration (PR #26572, v4.36.0): attn_implementation "sdpa" and the default when torch >= 2.1.1;
/// before, the default was eager attention.
inline constexpr int kSdpaSince = 36;
/// StaticCache and generate(cache_implementation="static") (v4.38.0).
inline constexpr int kStaticCacheSince = 38;
/// generate keeps one DynamicCache object from start to end (PR #30536, v4.42.0). Before, every step went
/// through the legacy tuple format: the previous step's cache stayed referenced while the new one was built
/// (two copies of the whole cache), and the first step's logits leaked into the second.
inline constexpr int kCacheInPlaceSince = 42;
/// QuantizedCache with quanto and HQQ backends (cache_utils.py, v4.42.0).
inline constexpr int kQuantizedCacheSince = 42;
/// OffloadedCache (cache_implementation="offloaded", v4.44.0).
inline constexpr int kOffloadedCacheSince = 44;
/// num_logits_to_keep (PR #31292, v4.45.0): generate computes logits for the last position only;
/// before, lm_head ran over every prompt position and the model upcast them all to fp32.
inline constexpr int kLogitsToKeepSince = 45;
/// Layered caches (cache_utils.py v4.56.0): StaticCache builds StaticSlidingWindowLayer (sliding layers
/// capped at the window) and offloading moves only the non-sliding layers.
inline constexpr int kLayeredCacheSince = 56;

/// How a version text sits on the ladder.
enum class HfVersionFit : std::uint8_t { exact, newer, older };

/// A transformers version placed on the ladder.
struct HfVersion {
  int minor = kHfCurrentMinor;  ///< the 4.x minor whose behaviour is used
  HfVersionFit fit = HfVersionFit::exact;
  constexpr bool at_least(int since) const { return minor >= since; }
};

/// The ladder's rung for a read version (the nearest end when off the ladder).
constexpr HfVersion on_ladder(int major, int minor) {
  if (major > 4 || (major == 4 && minor > kHfNewestMinor)) return {kHfNewestMinor, HfVersionFit::newer};
  if (major < 4 || minor < kHfOldestMinor) return {kHfOldestMinor, HfVersionFit::older};
  return {minor, HfVersionFit::exact};
}

}  // namespace vram::transformers_engine
