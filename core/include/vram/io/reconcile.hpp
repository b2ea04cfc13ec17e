// Measured figures from a pasted log, beside the estimate (CONTRACT section 5,
// `vram-budget reconcile`).
//
// `read_log` scans the text that vLLM, llama.cpp or PyTorch printed and names
// each figure it recognises with a metric of CONTRACT section 3, keeping the
// line it came from and the precision it was printed with. `reconcile_rows`
// sets those figures beside a report's metrics. `reconcile_json` does both for
// the faces and adds an accuracy case (CONTRACT section 4) built from them.
//
// The log is arbitrary text: it is scanned line by line with plain substring
// searches (no regular expressions), in time proportional to its length, and
// at most `kMaxLogBytes` of it is read. Bytes that are not UTF-8 are carried
// as they are; the JSON writer replaces them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vram/budget/term.hpp"
#include "vram/catalog.hpp"
#include "vram/units.hpp"

namespace vram {

struct Report;

namespace io {

/// The program that printed a figure.
enum class LogSource : std::uint8_t { vllm, llama_cpp, pytorch };
std::string_view to_string(LogSource source);

/// One measured figure, named by a metric of the vocabulary.
struct LogFigure {
  std::string_view metric;  ///< a literal of CONTRACT section 3
  LogSource source = LogSource::vllm;
  bool in_bytes = true;  ///< a byte count (`bytes`), else a count or a ratio (`value`)
  Bytes bytes;
  double value = 0;      ///< the figure in its unit (for bytes: the byte count as a double)
  double tolerance = 0;  ///< ± in the same unit: what the printed precision leaves open
  std::string line;      ///< the line, verbatim (cut around the figure when over 480 bytes)
  std::int64_t line_number = 0;  ///< 1-based
  std::string device;            ///< a llama.cpp buffer's device ("CUDA0"); "" elsewhere
  /// Every line whose figure went into this one, when more than one did (a
  /// device's buffers of one kind are summed).
  std::vector<std::int64_t> lines;
};

/// What a log says: at most one figure per metric, in vocabulary order.
struct LogReading {
  std::vector<LogFigure> found;
  std::vector<std::string> notes;  ///< conversions, choices among several lines, refused figures
};

/// What the scenario tells the reader.
struct LogOptions {
  std::int64_t block_size = 16;  ///< vLLM's block size: V0's "# GPU blocks: N" holds N × block_size tokens
  std::int64_t context = 0;      ///< the scenario's context, compared with "Maximum concurrency for N tokens"
};

/// The longest log read: 16 MiB (a startup log is a few hundred kilobytes).
inline constexpr std::size_t kMaxLogBytes = std::size_t{16} << 20;
/// Figures read from one log at most; the rest is named in a note.
inline constexpr std::size_t kMaxLogFigures = 4096;

/// The figures of a log. Throws `InputError` at "/log" when the log is longer
/// than `kMaxLogBytes` or holds no figure it recognises (the message lists
/// what is recognised, and any figure it refused, by line).
LogReading read_log(std::string_view log, const LogOptions& options = {});

/// A one-line list of what `read_log` recognises, for messages and `--help`.
std::string_view recognised_lines();

/// One measured figure beside the estimate.
struct ReconcileRow {
  std::string_view metric;
  double measured = 0;
  double tolerance = 0;
  std::optional<double> estimated;  ///< none when the report has no such metric
  std::optional<double> error;      ///< (estimated − measured) / measured; none without an estimate or for 0
  std::optional<ByteRange> range;   ///< the report's range for the metric (CONTRACT 1.1), bytes
  std::optional<bool> in_range;     ///< measured inside `range`; none without one
  bool within_tolerance = false;    ///< |estimated − measured| ≤ the printed precision
  std::string_view meaning;         ///< what the difference points at (one table, reconcile.cpp)
};

/// Each figure of `log` beside `report`'s metric of the same name.
std::vector<ReconcileRow> reconcile_rows(const LogReading& log, const Report& report);

}  // namespace io

/// Reads `log`, estimates `scenario_text` and sets them side by side:
/// {"ok": true, "v": 1, "found": [...], "rows": [...], "case": {...}, "notes": [...]}.
/// Bad input is {"ok": false, "error": {"path", "message"}} with the path under
/// "/log" or "/scenario". Returns JSON text (ASCII). Never throws.
std::string reconcile_json(const std::string& log, const std::string& scenario_text, const Catalog& catalog);

}  // namespace vram
