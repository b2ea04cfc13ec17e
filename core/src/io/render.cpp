#include "vram/io/render.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "vram/text_buffer.hpp"

namespace vram::io {

using namespace std::string_view_literals;

namespace {

using Op = Term::Op;

/// `text` with each "{}" replaced by the next argument, thousands grouped.
void append_template(TextBuffer& out, std::string_view text, const std::int64_t* args, std::size_t n) {
  // The texts are a few words: a byte loop finds the holes sooner than a call to memchr.
  std::size_t next = 0, from = 0;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '{' || text[i + 1] != '}') continue;
    out.put(text.substr(from, i - from));
    append_grouped(out, next < n ? args[next] : 0);
    ++next;
    from = ++i + 1;
  }
  out.put(text.substr(from));
}

/// "8,192 tokens", "2 B (bf16)", "0.9 gpu_memory_utilization".
void append_factor(TextBuffer& out, const Factor& f) {
  if (f.integer)
    append_grouped(out, f.count);
  else
    out.put(format_decimal(f.value, 4));
  if (!f.unit.empty()) {
    out.put(' ');
    if (f.templated)
      append_template(out, f.unit, f.args.data(), f.args.size());
    else
      out.put(f.unit);
  }
  if (!f.tag.empty()) {
    out.put(" ("sv);
    out.put(f.tag);
    out.put(')');
  }
}

/// "16,060,522,496 B" or "131,072 B/token".
void append_figure(TextBuffer& out, const Term& t) {
  append_exact(out, t.bytes);
  if (!t.per.empty()) {
    out.put('/');
    out.put(t.per);
  }
}

/// "weights 16,094,076,928 B": a part shown by its figure only.
void append_named_figure(TextBuffer& out, const Term& t) {
  if (!t.what.empty()) {
    out.put(t.what);
    out.put(' ');
  }
  append_figure(out, t);
}

/// A part of a sum is written inline when it is a bare product or a figure.
bool inline_part(const Term& t) {
  return t.what.empty() && t.per.empty() && ((t.op == Op::product && t.parts.empty()) || t.op == Op::given);
}

/// "what: " before an expression; a max adds the name of the part it takes.
void append_prefix(TextBuffer& out, const Term& t) {
  const Term* c = t.chosen();
  const std::string_view inner = c ? c->what : std::string_view{};
  if (t.what.empty() && inner.empty()) return;
  if (!t.what.empty() && !inner.empty()) {
    out.put(t.what);
    out.put(" ("sv);
    out.put(inner);
    out.put(')');
  } else {
    out.put(t.what.empty() ? inner : t.what);
  }
  out.put(": "sv);
}

/// "profiling forward pass 0.94 GiB is lower": the parts a max does not take.
void append_lower(TextBuffer& out, const Term& t) {
  const Term* c = t.chosen();
  int n = 0;
  for (const auto& p : t.parts) {
    if (&p == c) continue;
    if (n++ > 0) out.put(" and "sv);
    out.put(p.what.empty() ? std::string_view("the other part") : p.what);
    out.put(' ');
    append_format(out, p.bytes, t.shown);
  }
  out.put(n > 1 ? " are lower" : " is lower");
}

void append_group(TextBuffer& out, const Term& t);

void append_expr(TextBuffer& out, const Term& t) {
  switch (t.op) {
    case Op::product: {
      bool first = true;
      for (const auto& p : t.parts) {
        if (!first) out.put(" × "sv);
        first = false;
        append_group(out, p);
      }
      for (const auto& f : t.factors) {
        if (!first) out.put(" × "sv);
        first = false;
        append_factor(out, f);
      }
      if (first) out.put('1');
      return;
    }
    case Op::sum:
      for (std::size_t i = 0; i < t.parts.size(); ++i) {
        if (i > 0) out.put(" + "sv);
        inline_part(t.parts[i]) ? append_expr(out, t.parts[i]) : append_group(out, t.parts[i]);
      }
      return;
    case Op::difference:
      for (std::size_t i = 0; i < t.parts.size(); ++i) {
        if (i > 0) out.put(" − "sv);
        append_named_figure(out, t.parts[i]);
      }
      return;
    case Op::max:
      if (const Term* c = t.chosen()) return append_expr(out, *c);
      return append_figure(out, t);
    case Op::given: return append_figure(out, t);
  }
}

/// "(what: expr = N B)", with the lower parts of a max after a semicolon.
void append_group(TextBuffer& out, const Term& t) {
  out.put('(');
  if (t.op == Op::given) {
    append_named_figure(out, t);
    out.put(')');
    return;
  }
  append_prefix(out, t);
  append_expr(out, t);
  out.put(" = "sv);
  append_figure(out, t);
  if (t.op == Op::max && t.parts.size() > 1) {
    out.put("; "sv);
    append_lower(out, t);
  }
  out.put(')');
}

}  // namespace

void render_into(TextBuffer& out, const Term& t) {
  if (t.op == Op::given) {
    append_named_figure(out, t);
  } else {
    append_prefix(out, t);
    append_expr(out, t);
    out.put(" = "sv);
    append_figure(out, t);
  }
  if (t.per.empty()) {
    out.put(" ≈ "sv);
    append_format(out, t.bytes, t.shown);
  }
  if (t.op == Op::max && t.parts.size() > 1) {
    out.put(" ("sv);
    append_lower(out, t);
    out.put(')');
  }
  if (!t.note.empty()) {
    out.put("; "sv);
    append_template(out, t.note, t.note_args.data(), t.note_args.size());
  }
}

std::string render(const Term& t) {
  char store[768];  // most formulas fit here; the longest (a sampler step) moves to the heap
  TextBuffer out(store, sizeof store);
  render_into(out, t);
  return out.take();
}

namespace {

/// The distinct sources of a term, kept in place up to a dozen (a component
/// cites a few) and on the heap beyond.
class SourceList {
 public:
  void add(std::string_view s) {
    if (std::find(begin(), end(), s) != end()) return;
    if (n_ < few_.size()) {
      few_[n_++] = s;
      return;
    }
    if (more_.empty()) more_.assign(few_.begin(), few_.end());
    more_.push_back(s);
  }
  const std::string_view* begin() const { return more_.empty() ? few_.data() : more_.data(); }
  const std::string_view* end() const { return more_.empty() ? few_.data() + n_ : more_.data() + more_.size(); }

 private:
  std::array<std::string_view, 12> few_;
  std::size_t n_ = 0;
  std::vector<std::string_view> more_;
};

/// The sources of a term's parts, each once, in the order the formula shows them
/// (a sum of terms from several mechanisms cites each mechanism's source). A
/// source is a literal: one already cited is the same text, found by comparing
/// the few cited so far rather than by searching the joined text.
void collect_sources(const Term& t, SourceList& out) {
  if (!t.source.empty()) return out.add(t.source);
  for (const Term& part : t.parts) collect_sources(part, out);
}

}  // namespace

Component component(std::string_view id, std::string_view label, const Term& t, bool explain,
                    std::string_view more_source) {
  Component c{id, label, t.bytes, {}, {}};
  c.range = t.range;
  if (!explain) return c;
  c.formula = render(t);
  SourceList sources;
  collect_sources(t, sources);
  if (!more_source.empty()) sources.add(more_source);
  std::size_t size = 0;
  for (const auto& s : sources) size += s.size() + 2;
  c.source.reserve(size);
  for (const auto& s : sources) {
    if (!c.source.empty()) c.source += "; ";
    c.source += s;
  }
  return c;
}

Component cuda_context_component(Term context, bool explain) {
  Component c = component("cuda_context", "CUDA context", context, explain);
  c.outside_reservation = true;  // created before any engine reserves memory
  c.torch_allocator = false;
  return c;
}

void render_kv_pool(TextBuffer& out, Bytes available, Bytes page, std::int64_t group_size, std::int64_t blocks,
                    std::int64_t groups, std::int64_t block_size, std::int64_t tokens) {
  append_format(out, available, kGiB);
  out.put(" / ("sv);
  append_exact(out, page);
  out.put(" per layer-block × "sv);
  append_grouped(out, group_size);
  out.put(" layers) = "sv);
  append_grouped(out, blocks);
  out.put(" blocks; "sv);
  append_grouped(out, blocks);
  out.put(" / "sv);
  append_grouped(out, std::max<std::int64_t>(1, groups));
  out.put(" groups × "sv);
  append_grouped(out, block_size);
  out.put(" tokens = "sv);
  append_grouped(out, tokens);
  out.put(" tokens"sv);
}

void render_usable_reserved(TextBuffer& out, Bytes reserved, Bytes outside, Bytes usable, Bytes memory) {
  append_format(out, reserved, kGiB);
  out.put(" the engine reserves + "sv);
  append_format(out, outside, kGiB);
  out.put(" it allocates outside the reservation (CUDA context, CUDA graphs) = "sv);
  append_format(out, usable, kGiB);
  out.put(" of "sv);
  append_format(out, memory, kGiB);
  out.put("; the engine's reservation is the headroom"sv);
}

void render_usable_headroom(TextBuffer& out, Bytes memory, double headroom, Bytes usable) {
  append_format(out, memory, kGiB);
  out.put(" × (1 − "sv);
  append_grouped(out, static_cast<int>(headroom * 100 + 0.5));
  out.put(" % headroom) = "sv);
  append_format(out, usable, kGiB);
}

std::string render_layers(std::int64_t first, std::int64_t end, bool output) {
  std::string t = end <= first       ? std::string("no layers")
                  : end - first == 1 ? "layer " + std::to_string(first)
                                     : "layers " + std::to_string(first) + "–" + std::to_string(end - 1);
  return output ? t + " + output" : t;
}

std::string render_layer_split(const std::vector<SplitShare>& gpus, std::int64_t host_layers, bool host_output,
                               Bytes host_total) {
  std::string t;
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const SplitShare& x = gpus[g];
    t += (t.empty() ? "" : "; ") + std::string("GPU ") + std::to_string(g) + ": " +
         (x.used ? render_layers(x.first_layer, x.end_layer, x.output) + ", " + format_iec(x.total) : "idle");
  }
  return t + "; host: token_embd" + (host_layers > 0 ? " + " + render_layers(0, host_layers, false) : std::string()) +
         (host_output ? " + output" : "") + ", " + format_iec(host_total);
}

}  // namespace vram::io
