// The hostile-input suite: every case of tests/data/hostile/cases.jsonl goes
// through the four JSON entry points, each case in a child process so that a
// crash or a hang is reported against that case instead of ending the run.
// The case format and its recipes are described in tests/data/hostile/README.md.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "vram/estimate.hpp"
#include "vram/plan.hpp"

namespace {

using nlohmann::json;

const char* const kCasesFile = VRAM_SOURCE_DIR "/tests/data/hostile/cases.jsonl";
const char* const kMarkerValue = "@@hostile-marker@@";
constexpr int kGridContexts = 3;
constexpr int kGridConcurrency = 2;
constexpr unsigned kSecondsPerCase = 10;
const std::array<const char*, 4> kEntryPoints = {"estimate_json", "plan_json", "sweep_json", "grid_json"};

// The entry points answer JSON text, or a JSON value in older builds; both
// become text here.
std::string as_text(const std::string& s) {
  return s;
}
std::string as_text(const json& j) {
  return j.dump();
}

std::vector<json> load_cases() {
  std::istringstream in(vram::test::read_file(kCasesFile));
  std::vector<json> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    cases.push_back(json::parse(line));
  }
  return cases;
}

const std::vector<json>& cases() {
  static const std::vector<json> c = load_cases();
  return c;
}

std::string from_hex(const std::string& hex) {
  if (hex.size() % 2 != 0) throw std::runtime_error("odd number of hex digits: " + hex);
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::string repeated(const std::string& s, std::size_t times) {
  std::string out;
  out.reserve(s.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += s;
  return out;
}

/// The JSON text a recipe's generator puts where the marker was.
std::string generated_value(const json& r) {
  if (r.contains("nest")) {
    const auto n = r.at("nest").get<std::size_t>();
    const bool closed = !r.value("unclosed", false);
    const std::string open = r.at("open").get<std::string>();
    if (open == "[") return std::string(n, '[') + (closed ? std::string(n, ']') : "");
    if (open == "{") return repeated("{\"k\":", n) + (closed ? "0" + std::string(n, '}') : "");
    throw std::runtime_error("recipe open must be \"[\" or \"{\"");
  }
  if (r.contains("repeat")) {
    return "\"" + repeated(r.at("repeat").get<std::string>(), r.at("times").get<std::size_t>()) + "\"";
  }
  if (r.contains("array")) {
    const auto n = r.at("array").get<std::size_t>();
    const std::string item = r.at("item").dump();
    std::string out = "[";
    out.reserve(n * (item.size() + 1) + 2);
    for (std::size_t i = 0; i < n; ++i) (out += i ? "," : "") += item;
    return out + "]";
  }
  if (r.contains("bytes_hex")) return "\"" + from_hex(r.at("bytes_hex").get<std::string>()) + "\"";
  throw std::runtime_error("recipe has no generator");
}

/// The scenario text of a case (README: "A case", "Recipes").
std::string case_text(const json& c) {
  if (c.contains("scenario")) return c.at("scenario").dump();
  if (c.contains("text")) return c.at("text").get<std::string>();
  const json& r = c.at("recipe");
  json doc = r.value("base", json::object());
  std::string text;
  const bool generates = r.contains("nest") || r.contains("repeat") || r.contains("array") ||
                         r.contains("bytes_hex") || r.contains("key_hex");
  if (generates) {
    const json::json_pointer at(r.at("at").get<std::string>());
    std::string value;
    if (r.contains("key_hex")) {
      doc[at][kMarkerValue] = 0;
      value = "\"" + from_hex(r.at("key_hex").get<std::string>()) + "\"";
    } else {
      doc[at] = kMarkerValue;
      value = generated_value(r);
    }
    text = doc.dump();
    const std::string marker = std::string("\"") + kMarkerValue + "\"";
    const auto pos = text.find(marker);
    if (pos == std::string::npos) throw std::runtime_error("recipe marker not found");
    text.replace(pos, marker.size(), value);
  } else {
    text = doc.dump();
  }
  if (r.contains("pad_to")) {
    const auto n = r.at("pad_to").get<std::size_t>();
    if (text.size() > n) throw std::runtime_error("pad_to is shorter than the text");
    text.append(n - text.size(), ' ');
  }
  return text;
}

/// Deepest nesting of arrays and objects in a JSON text (strings skipped).
int max_depth(const std::string& text) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char ch : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (ch == '\\')
        escaped = true;
      else if (ch == '"')
        in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
  return deepest;
}

// ---------------------------------------------------------------------------
// Running one text through the four entry points in a child process
// ---------------------------------------------------------------------------

struct Outcome {
  std::vector<std::string> answers;  ///< one per entry point that finished
  std::string died;                  ///< how the child ended, when it did not exit normally
};

bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

std::string call_entry_point(std::size_t which, const std::string& text) {
  const vram::Catalog& cat = vram::test::catalog();
  try {
    switch (which) {
      case 0: return as_text(vram::estimate_json(text, cat));
      case 1: return as_text(vram::plan_json(text, cat));
      case 2: return as_text(vram::sweep_json(text, cat));
      default: return as_text(vram::grid_json(text, cat, kGridContexts, kGridConcurrency));
    }
  } catch (const std::exception& e) {
    return std::string("THREW: ") + e.what();
  } catch (...) {
    return "THREW: a non-standard exception";
  }
}

Outcome run_isolated(const std::string& text) {
  (void)vram::test::catalog();  // parsed once, before the fork
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    // The test framework's handlers would report the parent's test as failed
    // from inside the child; a crash here must simply end the child.
    for (int sig : {SIGSEGV, SIGFPE, SIGILL, SIGBUS, SIGABRT, SIGTERM, SIGINT, SIGALRM}) std::signal(sig, SIG_DFL);
    ::alarm(kSecondsPerCase);
    for (std::size_t i = 0; i < kEntryPoints.size(); ++i) {
      const std::string answer = call_entry_point(i, text);
      const std::uint64_t n = answer.size();
      if (!write_all(fds[1], &n, sizeof n) || !write_all(fds[1], answer.data(), answer.size())) ::_exit(3);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string buffer;
  char chunk[65536];
  for (;;) {
    const ssize_t r = ::read(fds[0], chunk, sizeof chunk);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    buffer.append(chunk, static_cast<std::size_t>(r));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  Outcome out;
  std::size_t pos = 0;
  while (pos + sizeof(std::uint64_t) <= buffer.size()) {
    std::uint64_t n = 0;
    std::memcpy(&n, buffer.data() + pos, sizeof n);
    pos += sizeof n;
    if (pos + n > buffer.size()) break;
    out.answers.push_back(buffer.substr(pos, n));
    pos += n;
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    out.died = sig == SIGALRM ? "ran past " + std::to_string(kSecondsPerCase) + " s"
                              : std::string("killed by signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    out.died = "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Checking the answers
// ---------------------------------------------------------------------------

/// Keys whose numbers are amounts that can never be negative.
bool is_quantity_key(const std::string& k) {
  if (k == "free_bytes") return false;  // usable − total: negative when it does not fit, checked on its own
  for (const char* word : {"bytes", "tokens", "concurrency", "concurrencies", "count", "totals", "contexts",
                           "params", "layers", "heads", "capacity", "blocks", "points"}) {
    if (k.find(word) != std::string::npos) return true;
  }
  return false;
}

void find_negatives(const json& j, const std::string& path, bool quantity, std::vector<std::string>& bad) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      find_negatives(it.value(), path + "/" + it.key(), is_quantity_key(it.key()), bad);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) find_negatives(j[i], path + "/" + std::to_string(i), quantity, bad);
  } else if (quantity && j.is_number() && j.get<double>() < 0) {
    bad.push_back(path + " = " + j.dump());
  }
}

std::int64_t as_int(const json& j) {
  return j.is_number_integer() ? j.get<std::int64_t>() : static_cast<std::int64_t>(j.get<double>());
}

void check_report_invariants(const json& r, std::vector<std::string>& why) {
  std::vector<std::string> neg;
  find_negatives(r, "", false, neg);
  for (const auto& n : neg) why.push_back("negative figure " + n);
  if (!r.contains("components") || !r["components"].is_array() || !r.contains("total_bytes")) {
    why.push_back("report without components or total_bytes");
    return;
  }
  std::int64_t sum = 0;
  for (const auto& c : r["components"]) sum += as_int(c.at("bytes"));
  const std::int64_t total = as_int(r["total_bytes"]);
  const std::int64_t usable = as_int(r.at("usable_bytes"));
  const std::int64_t capacity = as_int(r.at("capacity_bytes"));
  if (sum != total) why.push_back("components sum to " + std::to_string(sum) + " but total_bytes is " + std::to_string(total));
  if (usable > capacity) why.push_back("usable_bytes " + std::to_string(usable) + " > capacity_bytes " + std::to_string(capacity));
  if (r.contains("free_bytes") && as_int(r["free_bytes"]) != usable - total)
    why.push_back("free_bytes is not usable_bytes − total_bytes");
  if (r.value("fits", false) && total > usable)
    why.push_back("fits: true with total_bytes " + std::to_string(total) + " > usable_bytes " + std::to_string(usable));
}

void check_plan_invariants(const json& p, std::vector<std::string>& why) {
  std::vector<std::string> neg;
  find_negatives(p, "", false, neg);
  for (const auto& n : neg) why.push_back("negative figure " + n);
  if (p.contains("max_context_tokens") && p.contains("max_context_limit") &&
      as_int(p["max_context_tokens"]) > as_int(p["max_context_limit"]))
    why.push_back("max_context_tokens exceeds max_context_limit");
  if (p.contains("gpu_options") && p["gpu_options"].is_array()) {
    for (const auto& o : p["gpu_options"]) {
      if (as_int(o.at("total_bytes")) > as_int(o.at("memory_bytes")))
        why.push_back("GPU option " + o.value("gpu", std::string("?")) + " needs more than its memory");
      if (as_int(o.at("count")) < 1) why.push_back("GPU option with count < 1");
    }
  }
}

void check_sweep_invariants(const json& s, std::vector<std::string>& why) {
  std::vector<std::string> neg;
  find_negatives(s, "", false, neg);
  for (const auto& n : neg) why.push_back("negative figure " + n);
  const json& totals = s.at("totals");
  const json& fits = s.at("fits");
  const json& contexts = s.at("contexts");
  if (totals.size() != fits.size() || totals.size() != contexts.size()) {
    why.push_back("sweep arrays of different lengths");
    return;
  }
  const std::int64_t usable = as_int(s.at("usable_bytes"));
  for (std::size_t i = 0; i < totals.size(); ++i) {
    if (fits[i].get<bool>() && as_int(totals[i]) > usable)
      why.push_back("sweep point " + std::to_string(i) + " fits with a total above usable_bytes");
  }
}

void check_grid_invariants(const json& g, std::vector<std::string>& why) {
  std::vector<std::string> neg;
  find_negatives(g, "", false, neg);
  for (const auto& n : neg) why.push_back("negative figure " + n);
  const json& contexts = g.at("contexts");
  const json& conc = g.at("concurrencies");
  const json& totals = g.at("totals");
  const json& best = g.at("max_fitting_concurrency");
  if (contexts.size() != static_cast<std::size_t>(kGridContexts) ||
      conc.size() != static_cast<std::size_t>(kGridConcurrency) || totals.size() != contexts.size() * conc.size() ||
      as_int(g.at("points")) != static_cast<std::int64_t>(totals.size()) || best.size() != contexts.size()) {
    why.push_back("grid sizes disagree with the " + std::to_string(kGridContexts) + " × " +
                  std::to_string(kGridConcurrency) + " asked for");
    return;
  }
  const std::int64_t usable = as_int(g.at("usable_bytes"));
  for (std::size_t ci = 0; ci < best.size(); ++ci) {
    const std::int64_t b = as_int(best[ci]);
    if (b < 0 || b > kGridConcurrency) {
      why.push_back("max_fitting_concurrency out of range");
    } else if (b > 0 && as_int(totals[static_cast<std::size_t>(b - 1) * contexts.size() + ci]) > usable) {
      why.push_back("grid: the largest fitting concurrency at context " + contexts[ci].dump() +
                    " has a total above usable_bytes");
    }
  }
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string cut(const std::string& s, std::size_t n = 300) {
  return s.size() > n ? s.substr(0, n) + "…" : s;
}

/// Why one answer does not meet the case's expectation (empty when it does).
std::vector<std::string> judge(const json& c, std::size_t which, const std::string& answer) {
  std::vector<std::string> why;
  if (starts_with(answer, "THREW: ")) return {"threw instead of answering: " + cut(answer)};
  json a;
  try {
    a = json::parse(answer);
  } catch (const std::exception& e) {
    return {std::string("answer is not valid JSON (") + e.what() + "): " + cut(answer)};
  }
  if (!a.is_object() || !a.contains("ok") || !a["ok"].is_boolean()) return {"answer has no boolean ok: " + cut(answer)};
  const json& expect = c.at("expect");
  const bool want_ok = expect.at("ok").get<bool>();
  if (a["ok"].get<bool>() != want_ok) {
    if (want_ok) return {"expected ok:true, got " + cut(a.dump())};
    return {"expected ok:false, got ok:true"};
  }
  if (want_ok) {
    switch (which) {
      case 0: check_report_invariants(a, why); break;
      case 1: check_plan_invariants(a, why); break;
      case 2: check_sweep_invariants(a, why); break;
      default: check_grid_invariants(a, why); break;
    }
    return why;
  }
  const json err = a.value("error", json());
  if (!err.is_object() || !err.contains("path") || !err["path"].is_string() || !err.contains("message") ||
      !err["message"].is_string()) {
    return {"error is not {path, message}: " + cut(a.dump())};
  }
  const std::string path = err["path"].get<std::string>();
  const std::string message = err["message"].get<std::string>();
  if (message.empty()) why.push_back("empty error message");
  const std::string got = " (got path \"" + cut(path, 80) + "\": " + cut(message, 200) + ")";
  if (expect.contains("path") && path != expect["path"].get<std::string>()) {
    why.push_back("expected path \"" + expect["path"].get<std::string>() + "\"" + got);
  }
  if (expect.contains("path_prefix")) {
    const json& pre = expect["path_prefix"];
    bool any = false;
    std::string wanted;
    for (const auto& p : pre.is_array() ? pre : json::array({pre})) {
      any = any || starts_with(path, p.get<std::string>());
      (wanted += wanted.empty() ? "" : " or ") += "\"" + p.get<std::string>() + "\"";
    }
    if (!any) why.push_back("expected a path starting with " + wanted + got);
  }
  for (const auto& m : c.value("message_has", json::array())) {
    if (message.find(m.get<std::string>()) == std::string::npos)
      why.push_back("message lacks \"" + m.get<std::string>() + "\"" + got);
  }
  return why;
}

}  // namespace

TEST_CASE("the hostile case file is well formed", "[hostile]") {
  const auto& all = cases();
  CHECK(all.size() >= 110);
  std::set<std::string> ids;
  for (const json& c : all) {
    const std::string id = c.at("id").get<std::string>();
    INFO(id);
    CHECK(ids.insert(id).second);
    CHECK(c.contains("why"));
    CHECK(c.count("scenario") + c.count("text") + c.count("recipe") == 1);
    REQUIRE(c.contains("expect"));
    CHECK(c["expect"].at("ok").is_boolean());
    if (c["expect"]["ok"].get<bool>()) CHECK(c["expect"].size() == 1);
  }
}

TEST_CASE("recipes build the depths they name", "[hostile]") {
  for (const json& c : cases()) {
    if (!c.contains("recipe") || !c["recipe"].contains("nest") || c["recipe"].value("unclosed", false)) continue;
    const json& r = c["recipe"];
    const std::string at = r.at("at").get<std::string>();
    // Containers around `at`: the root plus one per segment above the last.
    const int around = at.empty() ? 0 : static_cast<int>(std::count(at.begin(), at.end(), '/'));
    INFO(c["id"].get<std::string>());
    CHECK(max_depth(case_text(c)) == around + r["nest"].get<int>());
  }
  json c = json::parse(R"({"recipe": {"base": {"model": "x"}, "at": "/extra", "nest": 63, "open": "["}})");
  CHECK(max_depth(case_text(c)) == 64);
  c = json::parse(R"({"recipe": {"base": {"a": 1}, "at": "/b", "bytes_hex": "c0af"}})");
  CHECK(case_text(c) == "{\"a\":1,\"b\":\"\xc0\xaf\"}");
  c = json::parse(R"({"recipe": {"base": {"a": {}}, "at": "/a", "key_hex": "ff"}})");
  CHECK(case_text(c) == "{\"a\":{\"\xff\":0}}");
  c = json::parse(R"({"recipe": {"base": {"a": 1}, "pad_to": 12}})");
  CHECK(case_text(c) == "{\"a\":1}     ");
}

TEST_CASE("every hostile case, through estimate, plan, sweep and grid", "[hostile]") {
  int failing = 0;
  for (const json& c : cases()) {
    const std::string id = c.at("id").get<std::string>();
    const std::string text = case_text(c);
    const Outcome out = run_isolated(text);
    std::string report;
    for (std::size_t i = 0; i < kEntryPoints.size(); ++i) {
      if (i >= out.answers.size()) {
        report += std::string("\n  [") + kEntryPoints[i] + "] no answer: the child " + out.died;
        break;
      }
      for (const auto& w : judge(c, i, out.answers[i])) report += std::string("\n  [") + kEntryPoints[i] + "] " + w;
    }
    if (!report.empty()) {
      ++failing;
      FAIL_CHECK("case " << id << " (" << c.value("why", std::string()) << "):" << report);
    }
  }
  INFO(failing << " of " << cases().size() << " cases fail");
  CHECK(failing == 0);
}
