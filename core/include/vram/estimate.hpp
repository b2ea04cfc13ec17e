// The estimator's entry point: scenario in, report out.
#pragma once

#include <string>

#include "vram/catalog.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram {

/// The budget of one scenario, per GPU, with the fit verdict.
///
/// Example (the article's hypothetical model): {"params": 13000000000}, bf16,
/// on an H100 80GB with 10 % headroom: weights 13,000,000,000 × 2 B =
/// 26,000,000,000 B ≈ 24.21 GiB, plus the engine's runtime terms.
Report estimate(const Scenario& scenario);

/// Parses and estimates; bad input becomes {"ok": false, "error": {path, message}}.
/// Never throws.
nlohmann::json estimate_json(const std::string& scenario_text, const Catalog& catalog);

/// Turns any exception into the contract's error object.
nlohmann::json error_json(const std::string& path, const std::string& message);

}  // namespace vram
