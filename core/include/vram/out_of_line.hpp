#pragma once

/// Marks a function the usual estimate does not run (another workload's or
/// another engine's settings, a block the scenario leaves out) so that the
/// compiler keeps it a function of its own instead of inlining it into its one
/// caller. Browsers compile a WebAssembly function on its first call (V8's lazy
/// compilation, on by default in Chromium and node): code inlined into a caller
/// is compiled with it whether it runs or not, and that compilation is most of
/// the page's first estimate (README, "Speed and size").
#define VRAM_OUT_OF_LINE [[gnu::noinline]]
