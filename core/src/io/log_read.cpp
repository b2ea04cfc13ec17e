// Reading measured figures from a pasted log (io/reconcile.hpp).
//
// Each recognised line is a phrase from one table (kPatterns) plus the shape
// of the figure that follows it. Lines are scanned with substring searches
// only: the work is a fixed number of passes over each line, whatever it holds.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "vram/accuracy.hpp"
#include "vram/error.hpp"
#include "vram/io/reconcile.hpp"

namespace vram::io {

std::string_view to_string(LogSource source) {
  switch (source) {
    case LogSource::vllm: return "vllm";
    case LogSource::llama_cpp: return "llama.cpp";
    case LogSource::pytorch: return "pytorch";
  }
  return "";
}

std::string_view recognised_lines() {
  return "vLLM \"Model loading took X GiB\" (or \"Loading model weights took X GB\"), \"Available KV cache memory: X "
         "GiB\", \"GPU KV cache size: N tokens\", \"Maximum concurrency for N tokens per request: X\", the memory "
         "profiling line (\"torch peak memory increase\", \"non-torch forward increase memory\", \"non-torch memory "
         "takes\"), \"Graph capturing finished in N secs, took X GiB\", V0 \"# GPU blocks: N\"; llama.cpp \"CUDA0 "
         "model buffer size = X MiB\", \"CUDA0 KV buffer size = X MiB\" or \"KV self size = X MiB\", \"CUDA0 compute "
         "buffer size = X MiB\"; PyTorch prints labelled max_memory_allocated / max_memory_reserved (or \"peak "
         "allocated\" / \"peak reserved\"), and torch.cuda.memory_summary() tables";
}

namespace {

/// `text` in double quotes, for messages (appended: GCC 12 misreads "\"" + std::string(...) under -Wrestrict).
std::string quoted(std::string_view text) {
  std::string q;
  q.reserve(text.size() + 2);
  q += '"';
  q += text;
  q += '"';
  return q;
}

/// How the figure follows the phrase that names it.
enum class Shape : std::uint8_t {
  amount,         ///< a figure and its unit ("Model loading took 14.99 GiB")
  tokens,         ///< a whole count ("GPU KV cache size: 126,256 tokens")
  blocks,         ///< a block count (vLLM V0 "# GPU blocks: 7449"), times the block size
  concurrency,    ///< "Maximum concurrency for 8,192 tokens per request: 15.41x"
  took,           ///< "took X GiB" further on ("Graph capturing finished in 5 secs, took 0.53 GiB")
  device_buffer,  ///< "CUDA0 model buffer size = 4403.49 MiB": the word before the phrase is the device
  old_tensors,    ///< llama.cpp before 2025: "llm_load_tensors:      CUDA0 buffer size =  4403.49 MiB"
  label,          ///< a label in any case, then the first figure within a few characters (PyTorch prints)
};

struct Pattern {
  std::string_view phrase;  ///< lower case for `label`
  std::string_view metric;
  LogSource source;
  Shape shape;
};

constexpr LogSource kVllm = LogSource::vllm;
constexpr LogSource kLlama = LogSource::llama_cpp;
constexpr LogSource kTorch = LogSource::pytorch;

constexpr Pattern kPatterns[] = {
    // vLLM, gpu_worker.py / gpu_model_runner.py / worker.py (V0) / llm_engine.py, 0.6 to 0.19.
    {"Model loading took", "weights_bytes", kVllm, Shape::amount},
    {"Loading model weights took", "weights_bytes", kVllm, Shape::amount},
    {"model weights take", "weights_bytes", kVllm, Shape::amount},
    {"weights memory:", "weights_bytes", kVllm, Shape::amount},
    {"Available KV cache memory:", "kv_cache_bytes", kVllm, Shape::amount},
    {"the rest of the memory reserved for KV Cache is", "kv_cache_bytes", kVllm, Shape::amount},
    {"GPU KV cache size:", "kv_capacity_tokens", kVllm, Shape::tokens},
    {"# GPU blocks:", "kv_capacity_tokens", kVllm, Shape::blocks},
    {"# cuda blocks:", "kv_capacity_tokens", kVllm, Shape::blocks},
    {"Maximum concurrency for", "max_concurrency", kVllm, Shape::concurrency},
    {"torch peak memory increase", "activation_bytes", kVllm, Shape::amount},
    {"the peak torch memory increase", "activation_bytes", kVllm, Shape::amount},
    {"PyTorch activation peak memory takes", "activation_bytes", kVllm, Shape::amount},
    {"non-torch forward increase memory", "non_torch_bytes", kVllm, Shape::amount},
    {"non-torch memory takes", "non_torch_bytes", kVllm, Shape::amount},
    {"non_torch_memory takes", "non_torch_bytes", kVllm, Shape::amount},
    {"Graph capturing finished in", "cuda_graph_bytes", kVllm, Shape::took},
    // llama.cpp, llama-model.cpp load_tensors / llama-kv-cache / llama-context (and their older names).
    {" model buffer size", "weights_bytes", kLlama, Shape::device_buffer},
    {"llm_load_tensors:", "weights_bytes", kLlama, Shape::old_tensors},
    {" KV buffer size", "kv_cache_bytes", kLlama, Shape::device_buffer},
    {"KV self size", "kv_cache_bytes", kLlama, Shape::amount},
    {" compute buffer size", "activation_bytes", kLlama, Shape::device_buffer},
    // PyTorch: torch.cuda.max_memory_allocated() / max_memory_reserved() printed with a label.
    {"max_memory_allocated", "peak_allocated_bytes", kTorch, Shape::label},
    {"peak allocated", "peak_allocated_bytes", kTorch, Shape::label},
    {"max_memory_reserved", "peak_reserved_bytes", kTorch, Shape::label},
    {"peak reserved", "peak_reserved_bytes", kTorch, Shape::label},
};

/// A unit as a log spells it.
struct UnitName {
  std::string_view name;
  Unit unit;
  bool exact_case = false;  ///< "B" only: a lower-case "b" would be bits
};
constexpr Unit kByte{1, "B"};
constexpr Unit kTB{1'000'000'000'000, "TB"};
constexpr UnitName kUnitNames[] = {{"GiB", kGiB}, {"MiB", kMiB}, {"KiB", kKiB}, {"TiB", kTiB},   {"GB", kGB},
                                   {"MB", kMB},   {"KB", kKB},   {"TB", kTB},   {"bytes", kByte}, {"B", kByte, true}};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// The first position of `needle` (lower case) in `text`, in any case.
std::size_t find_any_case(std::string_view text, std::string_view needle) {
  if (needle.empty() || text.size() < needle.size()) return std::string_view::npos;
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
    if (lower(text[i]) != needle[0]) continue;
    std::size_t k = 1;
    while (k < needle.size() && lower(text[i + k]) == needle[k]) ++k;
    if (k == needle.size()) return i;
  }
  return std::string_view::npos;
}

/// A number as printed: [-+]digits[,ddd...][.digits][e[-+]digits].
struct Number {
  enum Status : std::uint8_t { none, ok, bad } status = none;
  double value = 0;
  int decimals = 0;  ///< places after the point less the exponent: the last printed digit is 10^-decimals
  std::size_t length = 0;
  std::string problem;  ///< for `bad`
};

/// Reads the digits of a number into `clean` (without group separators) from `s[i]`.
std::size_t read_digits(std::string_view s, std::size_t i, std::string& clean, bool groups) {
  while (i < s.size()) {
    if (is_digit(s[i])) {
      clean += s[i++];
    } else if (groups && s[i] == ',' && !clean.empty() && i + 3 < s.size() && is_digit(s[i + 1]) &&
               is_digit(s[i + 2]) && is_digit(s[i + 3]) && (i + 4 == s.size() || !is_digit(s[i + 4]))) {
      ++i;  // "126,256": a thousands separator
    } else {
      break;
    }
  }
  return i;
}

/// The number at the start of `s` (a figure is at most 64 characters).
Number read_number(std::string_view s) {
  Number n;
  std::string clean;
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) clean += s[i++];
  const std::size_t first = i;
  i = read_digits(s, i, clean, true);
  if (i + 1 < s.size() && s[i] == '.' && is_digit(s[i + 1])) {
    clean += s[i++];
    const std::size_t before = i;
    i = read_digits(s, i, clean, false);
    n.decimals = static_cast<int>(std::min<std::size_t>(i - before, 30));
  }
  if (i == first) return n;  // no digit: not a number
  if (i + 1 < s.size() && (s[i] == 'e' || s[i] == 'E') &&
      (is_digit(s[i + 1]) || ((s[i + 1] == '-' || s[i + 1] == '+') && i + 2 < s.size() && is_digit(s[i + 2])))) {
    const std::size_t at = clean.size() + 1;
    clean += s[i++];
    if (s[i] == '-' || s[i] == '+') clean += s[i++];
    i = read_digits(s, i, clean, false);
    int exponent = 0;
    std::from_chars(clean.data() + at, clean.data() + clean.size(), exponent);
    n.decimals = std::clamp(n.decimals - exponent, -30, 30);
  }
  n.length = i;
  if (i > 64) {
    n.status = Number::bad;
    n.problem = "a number of more than 64 characters";
    return n;
  }
  // strtod, not from_chars: this libc++ (Emscripten 3.1.6) has no floating-point from_chars.
  // `clean` holds only digits, one '.', a sign and an exponent, so the C locale reads it whole.
  char* end = nullptr;
  n.value = std::strtod(clean.c_str(), &end);
  const bool finite = end == clean.c_str() + clean.size() && std::isfinite(n.value);
  n.status = finite ? Number::ok : Number::bad;
  if (!finite) n.problem = quoted(s.substr(0, i)) + " is not a finite number";
  return n;
}

/// The unit at the start of `s` (after spaces), and the characters it took.
std::optional<std::pair<UnitName, std::size_t>> read_unit(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  for (const UnitName& u : kUnitNames) {
    if (s.size() - i < u.name.size()) continue;
    bool same = true;
    for (std::size_t k = 0; k < u.name.size() && same; ++k)
      same = u.exact_case ? s[i + k] == u.name[k] : lower(s[i + k]) == lower(u.name[k]);
    const std::size_t end = i + u.name.size();
    if (same && (end == s.size() || !is_letter(s[end]))) return std::pair{u, end};
  }
  return std::nullopt;
}

/// The first unit named as a word anywhere in `s` ("peak reserved (GiB): 17.2").
std::optional<UnitName> unit_in(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!is_letter(s[i]) || (i > 0 && is_letter(s[i - 1]))) continue;
    if (auto u = read_unit(s.substr(i))) return u->first;
  }
  return std::nullopt;
}

/// The reader's state over one log.
struct Scan {
  const LogOptions& options;
  std::vector<LogFigure> raw;
  std::vector<std::string> notes;
  std::vector<std::string> refused;
  bool vllm_si = false;          ///< a vLLM figure printed with "GB" / "MB"
  bool host_buffers = false;     ///< llama.cpp host buffers were left out
  bool blocks = false;           ///< vLLM V0 blocks were converted to tokens
  bool summary_floor = false;    ///< memory_summary() figures in whole units
  std::size_t summary_peak = 3;  ///< the "Peak Usage" cell of memory_summary() rows
};

/// One line of the log.
struct Line {
  std::string_view text;
  std::int64_t number = 0;
};

/// The line as recorded: whole, or the 320 bytes around the figure of a long one.
std::string quote(std::string_view text, std::size_t at) {
  if (text.size() <= 480) return std::string(text);
  const std::size_t from = at > 160 ? at - 160 : 0;
  return (from > 0 ? "[…] " : "") + std::string(text.substr(from, 320)) + " […]";
}

void refuse(Scan& scan, const Line& line, std::string_view metric, const std::string& why) {
  std::string n = "line " + group_thousands(line.number) + ": " + std::string(metric) + " not read: " + why;
  scan.refused.push_back(n);
  scan.notes.push_back(std::move(n));
}

LogFigure figure_at(const Pattern& p, const Line& line, std::size_t at) {
  LogFigure f;
  f.metric = p.metric;
  f.source = p.source;
  f.line = quote(line.text, at);
  f.line_number = line.number;
  return f;
}

/// A byte figure `n` `unit`s, checked to lie in [0, 2^53] bytes.
void add_bytes(Scan& scan, const Pattern& p, const Line& line, std::size_t at, const Number& n, Unit unit,
               double tolerance_units, const std::string& device) {
  const double bytes = n.value * static_cast<double>(unit.divisor);
  if (n.value < 0 || std::signbit(n.value)) return refuse(scan, line, p.metric, "a negative figure");
  if (bytes > static_cast<double>(kMaxPlausibleBytes.in_bytes()))
    return refuse(scan, line, p.metric, "more than 2^53 bytes, beyond any GPU");
  LogFigure f = figure_at(p, line, at);
  f.bytes = Bytes::from_fraction(n.value, unit);
  f.value = static_cast<double>(f.bytes.in_bytes());
  const double t = tolerance_units * static_cast<double>(unit.divisor);
  f.tolerance = t < 1 ? 0 : std::ceil(t);
  f.device = device;
  scan.raw.push_back(std::move(f));
}

/// Half the last printed digit: "14.99" is known to ±0.005.
double half_digit(const Number& n) { return 0.5 * std::pow(10.0, -n.decimals); }

/// What follows `at` when it is not a figure, for messages.
std::string next_word(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && i < 24 && s[i] != ' ' && s[i] != ',' && s[i] != ';') ++i;
  return quoted(s.substr(0, i));
}

std::size_t skip_separators(std::string_view s, std::size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == ':' || s[i] == '=')) ++i;
  return i;
}

/// "[:=] 14.99 GiB" from `at`: a byte figure with its unit.
void read_amount(Scan& scan, const Pattern& p, const Line& line, std::size_t at, const std::string& device = "") {
  const std::string_view rest = line.text.substr(skip_separators(line.text, at));
  const Number n = read_number(rest);
  if (n.status == Number::none) return refuse(scan, line, p.metric, next_word(rest) + " is not a figure");
  if (n.status == Number::bad) return refuse(scan, line, p.metric, n.problem);
  const auto unit = read_unit(rest.substr(n.length));
  if (!unit) return refuse(scan, line, p.metric, "the figure has no unit (GiB, MiB, GB, MB or bytes)");
  Unit u = unit->first.unit;
  if (p.source == LogSource::vllm && (u.label == kGB.label || u.label == kMB.label)) {
    u = u.label == kGB.label ? kGiB : kMiB;  // vLLM divides by 2^30 whatever label it prints
    scan.vllm_si = true;
  }
  add_bytes(scan, p, line, at, n, u, half_digit(n), device);
}

/// A whole count from `at` ("126,256"), or nullopt after refusing the line.
std::optional<std::int64_t> read_count(Scan& scan, const Pattern& p, const Line& line, std::size_t at) {
  const std::string_view rest = line.text.substr(skip_separators(line.text, at));
  const Number n = read_number(rest);
  if (n.status == Number::none) return refuse(scan, line, p.metric, next_word(rest) + " is not a count"), std::nullopt;
  if (n.status == Number::bad) return refuse(scan, line, p.metric, n.problem), std::nullopt;
  if (n.value < 0 || n.value != std::floor(n.value)) {
    return refuse(scan, line, p.metric, quoted(rest.substr(0, n.length)) + " is not a whole count"),
           std::nullopt;
  }
  if (n.value > static_cast<double>(kMaxPlausibleBytes.in_bytes()))
    return refuse(scan, line, p.metric, "a count beyond 2^53"), std::nullopt;
  return static_cast<std::int64_t>(n.value);
}

void add_count(Scan& scan, const Pattern& p, const Line& line, std::size_t at, double value, double tolerance) {
  LogFigure f = figure_at(p, line, at);
  f.in_bytes = false;
  f.value = value;
  f.tolerance = tolerance;
  scan.raw.push_back(std::move(f));
}

/// vLLM V0 "# GPU blocks: N": N blocks of the scenario's block size.
void read_blocks(Scan& scan, const Pattern& p, const Line& line, std::size_t at) {
  const auto blocks = read_count(scan, p, line, at);
  if (!blocks) return;
  std::int64_t tokens = 0;
  if (__builtin_mul_overflow(*blocks, scan.options.block_size, &tokens) ||
      tokens > kMaxPlausibleBytes.in_bytes())
    return refuse(scan, line, p.metric, "blocks × block size is beyond 2^53 tokens");
  add_count(scan, p, line, at, static_cast<double>(tokens), 0);
  scan.blocks = true;
}

/// "Maximum concurrency for 8,192 tokens per request: 15.41x".
void read_concurrency(Scan& scan, const Pattern& p, const Line& line, std::size_t at) {
  const auto per_request = read_count(scan, p, line, at);
  if (!per_request) return;
  const std::size_t colon = line.text.find("per request:", at);
  if (colon == std::string_view::npos) return;
  const std::size_t from = colon + std::string_view("per request:").size();
  const std::string_view rest = line.text.substr(skip_separators(line.text, from));
  const Number n = read_number(rest);
  if (n.status != Number::ok) return refuse(scan, line, p.metric, n.status == Number::bad ? n.problem : "no figure");
  if (n.value < 0 || n.value > static_cast<double>(kMaxPlausibleBytes.in_bytes()))
    return refuse(scan, line, p.metric, "a concurrency below 0 or beyond 2^53");
  add_count(scan, p, line, at, n.value, half_digit(n));
  const std::int64_t context = scan.options.context;
  if (context > 0 && *per_request != context) {
    scan.notes.push_back("line " + group_thousands(line.number) + ": vLLM's concurrency is for " +
                         group_thousands(*per_request) + " tokens per request, the scenario's context is " +
                         group_thousands(context) + ": the two max_concurrency figures count different sequences");
  }
}

/// "CUDA0 model buffer size = X MiB": the device is the word before `pos`.
void read_device_buffer(Scan& scan, const Pattern& p, const Line& line, std::size_t pos) {
  std::size_t from = pos;
  while (from > 0 && (is_letter(line.text[from - 1]) || is_digit(line.text[from - 1]) || line.text[from - 1] == '_'))
    --from;
  const std::string_view device = line.text.substr(from, pos - from);
  if (device.empty()) return;
  if (device.starts_with("CPU") || device.find("Host") != std::string_view::npos) {
    scan.host_buffers = true;  // host memory: not on the GPU
    return;
  }
  read_amount(scan, p, line, pos + p.phrase.size(), std::string(device));
}

/// "max_memory_allocated(): 17179869184", "peak reserved (GiB): 17.2".
void read_label(Scan& scan, const Pattern& p, const Line& line, std::size_t pos) {
  std::size_t at = pos + p.phrase.size();
  if (at < line.text.size() && line.text[at] == '(') {
    const std::size_t close = line.text.substr(at, 24).find(')');
    if (close != std::string_view::npos) at += close + 1;
  }
  const std::string_view window = line.text.substr(at, 64);
  std::size_t d = 0;
  while (d < window.size() && !is_digit(window[d])) ++d;
  if (d == window.size()) return;  // a label without a figure
  if (d > 0 && window[d - 1] == '-') --d;
  const Number n = read_number(window.substr(d));
  if (n.status != Number::ok) return refuse(scan, line, p.metric, n.problem);
  std::optional<UnitName> unit;
  if (auto after = read_unit(window.substr(d + n.length))) unit = after->first;
  if (!unit) unit = unit_in(window.substr(0, d));
  if (!unit && n.decimals > 0) return refuse(scan, line, p.metric, "a fraction without a unit cannot be bytes");
  const Unit u = unit ? unit->unit : kByte;
  add_bytes(scan, p, line, at + d, n, u, u.divisor == 1 ? 0 : half_digit(n), "");
}

void read_pattern(Scan& scan, const Pattern& p, const Line& line, std::size_t pos) {
  const std::size_t at = pos + p.phrase.size();
  switch (p.shape) {
    case Shape::amount: return read_amount(scan, p, line, at);
    case Shape::tokens: {
      if (const auto n = read_count(scan, p, line, at)) add_count(scan, p, line, at, static_cast<double>(*n), 0);
      return;
    }
    case Shape::blocks: return read_blocks(scan, p, line, at);
    case Shape::concurrency: return read_concurrency(scan, p, line, at);
    case Shape::took: {
      const std::size_t took = line.text.find("took ", at);
      if (took != std::string_view::npos) read_amount(scan, p, line, took + 5);
      return;
    }
    case Shape::device_buffer: return read_device_buffer(scan, p, line, pos);
    case Shape::old_tensors: {
      const std::size_t buffer = line.text.find(" buffer size", at);
      // "llm_load_tensors: CUDA0 model buffer size" is the pattern above.
      if (buffer != std::string_view::npos && !line.text.substr(0, buffer).ends_with(" model"))
        read_device_buffer(scan, Pattern{" buffer size", p.metric, p.source, p.shape}, line, buffer);
      return;
    }
    case Shape::label: return read_label(scan, p, line, pos);
  }
}

/// The cells of a table row "| a | b | c |" (at most 12).
std::vector<std::string_view> cells(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t from = 0;
  while (out.size() < 12) {
    const std::size_t bar = text.find('|', from);
    std::string_view cell = text.substr(from, bar == std::string_view::npos ? std::string_view::npos : bar - from);
    while (!cell.empty() && cell.front() == ' ') cell.remove_prefix(1);
    while (!cell.empty() && cell.back() == ' ') cell.remove_suffix(1);
    out.push_back(cell);
    if (bar == std::string_view::npos) break;
    from = bar + 1;
  }
  return out;
}

constexpr Pattern kSummaryRows[] = {
    {"Allocated memory", "peak_allocated_bytes", kTorch, Shape::amount},
    {"GPU reserved memory", "peak_reserved_bytes", kTorch, Shape::amount},
};

/// A row of torch.cuda.memory_summary(): its "Peak Usage" cell ("71390 MiB").
void read_summary_row(Scan& scan, const Line& line) {
  if (line.text.find('|') == std::string_view::npos) return;
  const std::vector<std::string_view> row = cells(line.text);
  for (std::size_t i = 0; i < row.size(); ++i)
    if (row[i] == "Peak Usage") scan.summary_peak = i;
  for (const Pattern& p : kSummaryRows) {
    if (row.size() <= scan.summary_peak || row[1] != p.phrase) continue;
    const std::string_view cell = row[scan.summary_peak];
    const Number n = read_number(cell);
    if (n.status != Number::ok) return refuse(scan, line, p.metric, n.problem.empty() ? "no figure" : n.problem);
    const auto unit = read_unit(cell.substr(n.length));
    if (!unit) return refuse(scan, line, p.metric, "the figure has no unit");
    const Unit u = unit->first.unit;
    // memory_summary() prints whole units, rounded down: the figure is known to one unit.
    const bool floored = n.decimals == 0 && u.divisor > 1;
    scan.summary_floor = scan.summary_floor || floored;
    const std::size_t at = static_cast<std::size_t>(cell.data() - line.text.data());
    add_bytes(scan, p, line, at, n, u, floored ? 1.0 : (u.divisor == 1 ? 0 : half_digit(n)), "");
  }
}

void scan_line(Scan& scan, const Line& line) {
  for (const Pattern& p : kPatterns) {
    const std::size_t pos = p.shape == Shape::label ? find_any_case(line.text, p.phrase) : line.text.find(p.phrase);
    if (pos != std::string_view::npos) read_pattern(scan, p, line, pos);
  }
  read_summary_row(scan, line);
}

}  // namespace

// Combining the figures of one metric (several lines, devices or ranks) is in reconcile.cpp.
LogReading combine_figures(std::vector<LogFigure> raw, std::vector<std::string> notes);

LogReading read_log(std::string_view log, const LogOptions& options) {
  if (log.size() > kMaxLogBytes) {
    throw InputError("/log", "the log is " + group_thousands(static_cast<std::int64_t>(log.size())) +
                                 " bytes; at most 16 MiB (" +
                                 group_thousands(static_cast<std::int64_t>(kMaxLogBytes)) + " bytes) is read");
  }
  Scan scan{options, {}, {}, {}};
  Line line;
  for (std::size_t start = 0; start < log.size();) {
    const std::size_t end = std::min(log.find('\n', start), log.size());
    line.text = log.substr(start, end - start);
    if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
    ++line.number;
    scan_line(scan, line);
    if (scan.raw.size() >= kMaxLogFigures) {
      scan.notes.push_back("only the first " + group_thousands(static_cast<std::int64_t>(kMaxLogFigures)) + " figures were read (to line " +
                           group_thousands(line.number) + ")");
      break;
    }
    start = end + 1;
  }
  if (scan.vllm_si)
    scan.notes.push_back("vLLM's \"GB\" read as GiB: vLLM divides by 2^30 and printed \"GB\" before ~0.6 (\"GiB\" since)");
  if (scan.host_buffers)
    scan.notes.push_back("llama.cpp host buffers (CPU, CUDA_Host) left out: they are not GPU memory");
  if (scan.blocks) {
    scan.notes.push_back("vLLM V0 \"# GPU blocks\": tokens = blocks × block size " +
                         group_thousands(options.block_size) + " (the scenario's inference.vllm.block_size)");
  }
  if (scan.summary_floor)
    scan.notes.push_back("torch.cuda.memory_summary() prints whole units rounded down: each figure ± one unit");
  LogReading r = combine_figures(std::move(scan.raw), std::move(scan.notes));
  if (r.found.empty()) {
    std::string why = "no figure recognised in " + group_thousands(line.number) + " lines; recognised: ";
    why += recognised_lines();
    for (std::size_t i = 0; i < scan.refused.size() && i < 5; ++i) why += (i ? "; " : "; refused: ") + scan.refused[i];
    throw InputError("/log", why);
  }
  return r;
}

}  // namespace vram::io
