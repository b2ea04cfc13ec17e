// Formula text from budget terms: the one place that turns a Term's factors
// into the words and numbers a report shows.
//
// A rendered formula reads as arithmetic that can be checked by hand:
//
//   formula  := [what ": "] expr " = " N " B" ["/" per | " ≈ " X unit] ["; " note]
//   expr     := operand (" + " operand)*  |  operand (" − " operand)*  |  factor (" × " factor)*
//   factor   := number [" " unit] [" (" tag ")"]  |  "(" group ")"
//   group    := [what ": "] expr " = " N " B" ["; " others " is lower"]
//
// Every number before the first " = " is a factor, a part or a figure of the
// arithmetic; a unit beginning with GiB or MiB scales its number by 2^30 or
// 2^20. A real factor is written with at most four decimals. A max shows the
// part it takes and names the others as lower.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vram/budget/term.hpp"
#include "vram/report.hpp"
#include "vram/text_buffer.hpp"

namespace vram::io {

/// The formula of `t`, ending in "= N B ≈ X GiB" (or "= N B/token" for a per-unit term).
std::string render(const Term& t);
/// The same formula appended to `out` (no string of its own).
void render_into(TextBuffer& out, const Term& t);

/// A report line from a term: the formula and the source (followed by
/// `more_source`, when given) are rendered only when `explain`; the figure and
/// the range always.
Component component(std::string_view id, std::string_view label, const Term& t, bool explain,
                    std::string_view more_source = {});

/// A CUDA context term (an engine's own composition) as its report line: made
/// before any engine reserves memory, and not a torch allocation.
Component cuda_context_component(Term context, bool explain);

/// vLLM's KV pool in blocks and tokens: "A GiB / (P B per layer-block × G layers)
/// = N blocks; N / K groups × B tokens = T tokens".
void render_kv_pool(TextBuffer& out, Bytes available, Bytes page, std::int64_t group_size, std::int64_t blocks,
                    std::int64_t groups, std::int64_t block_size, std::int64_t tokens);

/// The memory a scenario may use where the engine reserves its share itself
/// (vLLM): "R GiB the engine reserves + O GiB it allocates outside the
/// reservation (CUDA context, CUDA graphs) = U GiB of M GiB; the engine's
/// reservation is the headroom".
void render_usable_reserved(TextBuffer& out, Bytes reserved, Bytes outside, Bytes usable, Bytes memory);
/// The memory a scenario may use under a headroom: "M GiB × (1 − H % headroom) = U GiB".
void render_usable_headroom(TextBuffer& out, Bytes memory, double headroom, Bytes usable);

/// A range of decoder layers as llama.cpp's split names it: "layers 0–16 + output",
/// "layer 5", "no layers + output".
std::string render_layers(std::int64_t first, std::int64_t end, bool output);

/// One GPU of a layer split: its layers [first_layer, end_layer), the output
/// layer or not, and its total; an unused GPU is "idle".
struct SplitShare {
  bool used = false;
  std::int64_t first_layer = 0;
  std::int64_t end_layer = 0;
  bool output = false;
  Bytes total;
};

/// "GPU 0: layers 0–16, 4.37 GiB; GPU 1: layers 17–31 + output, 4.52 GiB; host:
/// token_embd + layers 0–3, 0.26 GiB": the GPUs in order, then what stays on
/// the host (the token embeddings, the first `host_layers` layers, the output
/// layer where `host_output`).
std::string render_layer_split(const std::vector<SplitShare>& gpus, std::int64_t host_layers, bool host_output,
                               Bytes host_total);

}  // namespace vram::io
