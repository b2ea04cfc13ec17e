#pragma once

#include <string>
#include <vector>

/// `vram-budget inspect FILE... [--json]`; returns the exit status.
int cmd_inspect(const std::vector<std::string>& files, bool as_json);
