// vLLM's memory outside the torch allocator during the profiling run: kernel
// workspaces, NCCL's connection buffers, NVLink SHARP buffers, vLLM's custom
// all-reduce and torch symmetric-memory buffers, each only where the layout
// and the interconnect make vLLM or NCCL create it.
#include "vram/engines/vllm.hpp"

#include "vram/budget/runtime.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kNcclSource =
    "NVIDIA/nccl src/init.cc DEFAULT_LL_BUFFSIZE, DEFAULT_LL128_BUFFSIZE, DEFAULT_BUFFSIZE (v2.21-v2.27: LL 8 lines × "
    "512 threads × 8 steps × 16 B, LL128 120 elems × 640 threads × 8 steps × 8 B, Simple 4 MiB); "
    "src/transport/p2p.cc (receive side LL/LL128, send side Simple with P2P read on NVLink), src/transport/shm.cc "
    "(host memory without P2P); channels: 24 coll channels on 4 H100 SXM (vllm-project/vllm#18567 NCCL log), "
    "2 over PCIe (NVIDIA/nccl-tests#228 log), NVLink pairs and xGMI assumed";
constexpr std::string_view kNvlsSource =
    "NVIDIA/nccl src/transport/nvls.cc @ 178b6b759074 ncclNvlsInit (off with 2 GPUs or fewer), ncclNvlsBufferSetup: "
    "NVLS_NCHANNELS 16 × 2 (reduce + broadcast) × NVLS_CHUNKSIZE 128 KiB × NCCL_STEPS 8 × heads";
constexpr std::string_view kCustomArSource =
    "vllm/distributed/device_communicators/custom_all_reduce.py @ 00d618aab604 CustomAllreduce: world sizes "
    "2, 4, 6, 8; more than 2 GPUs only when fully connected (NVLink / xGMI), 2 GPUs need P2P; buffers "
    "meta + max_size and max_size (8 MiB) through cudaMalloc, rank_data 8 MiB in torch";
constexpr std::string_view kSymmSource =
    "vllm/distributed/device_communicators/all_reduce_utils.py @ 00d618aab604 SYMM_MEM_ALL_REDUCE_MAX_SIZES "
    "(sm90: 64 MiB at 2 GPUs, 32 MiB at 4, 64 MiB at 6 and 8; sm100: 8, 32, 128, 128 MiB), cuda_communicator.py "
    "(VLLM_ALLREDUCE_USE_SYMM_MEM, tensor-parallel group only); counted from v0.11 on an NVLink fabric";
constexpr std::string_view kWorkspaceSource =
    "vLLM 0.19.0 startup logs, H100 sweep (llm-d-incubation/llm-d-planner @ d3121e059da8, "
    "accuracy/results/v0.19.0/logs): non-torch forward increase 0.24-0.46 GiB on 22 single-GPU runs, 0.07 GiB on 2 "
    "pipeline-parallel runs; range: their lowest and highest, widened by the log's rounding to 0.01 GiB";
constexpr std::string_view kWorkspaceOldSource =
    "llm-d-incubation/llm-d-planner @ a95e9f62e5de accuracy/results/version-sweep: non-torch forward increase 0.13 GiB "
    "for Qwen3-14B on an H100 with vLLM 0.15.0, 0.16.0 and 0.17.0 (0.25 GiB from 0.18.0); range: the log's rounding";
constexpr std::string_view kUnattributedSource =
    "vLLM 0.19.0 H100 sweep (llm-d-planner @ d3121e059da8): the non-torch increase of its 8 tensor-parallel runs "
    "(2.07-2.11 GiB at TP 2, 2.13-2.21 GiB at TP 4) less the terms above: 1.49-1.57 GiB at both sizes; measured on "
    "NVLink H100 only (elsewhere the range reaches 0)";
constexpr std::string_view kUnattributedOffSource =
    "tests/data/cases: tensor-parallel startup logs where vLLM's symmetric-memory all-reduce is off (2 × A100 on "
    "vLLM 0.10.1.1, sm80; 8 × L40S on 0.10.2 and 2 × L4 on 0.28.0, sm89 over PCIe; 2 × RTX PRO 6000 Blackwell on "
    "0.27.1 over PCIe without P2P), each without the 1.49-1.57 GiB the NVLink H100 sweep shows beside its other terms";

constexpr std::string_view kInitSource =
    "vllm/distributed/parallel_state.py initialize_model_parallel (world, tp, pp, ep groups), "
    "device_communicators/pynccl.py PyNcclCommunicator (warm-up all_reduce at creation); buffers as NCCL's defaults "
    "(src/init.cc, v2.21-v2.27); other device state per communicator: the vLLM 0.19.0 H100 sweep's init_non_torch "
    "(llm-d-planner @ d3121e059da8: 1.43-1.53 GiB with 2 communicators, 1.99-2.05 GiB with 3 on MoE models) less "
    "the driver context and the ring buffers: 0.245-0.295 GiB per communicator";

/// NCCL's per-connection protocol buffers (init.cc defaults).
constexpr std::int64_t kLlBytes = 8 * 512 * 8 * 16;        // 524,288
constexpr std::int64_t kLl128Bytes = 120 * 640 * 8 * 8;    // 4,915,200
constexpr std::int64_t kSimpleBytes = std::int64_t{1} << 22;  // 4 MiB

bool full_nvlink(Interconnect l) {
  return l == Interconnect::nvlink;
}

/// NCCL coll channels one GPU runs on this interconnect.
std::int64_t nccl_channels(const CommLayout& c) {
  switch (effective_link(c.link)) {
    case Interconnect::nvlink: return 24;
    case Interconnect::nvlink_pairs: return c.tensor_parallel == 2 ? 8 : 2;
    case Interconnect::xgmi: return 16;
    case Interconnect::pcie_p2p: return 2;
    case Interconnect::pcie:
    case Interconnect::unknown: return 0;  // SHM transport: the FIFOs live in host memory
  }
  return 0;
}

/// Compute capability the tables are read at: the GPU's, or sm90 when unknown.
int capability(const CommLayout& c) {
  return c.compute_capability > 0 ? c.compute_capability : 90;
}

}  // namespace

Interconnect effective_link(Interconnect l) {
  return l == Interconnect::unknown ? Interconnect::nvlink : l;
}

bool custom_allreduce_enabled(const CommLayout& c) {
  const std::int64_t w = c.tensor_parallel;
  if (w != 2 && w != 4 && w != 6 && w != 8) return false;
  const Interconnect l = effective_link(c.link);
  const bool fully_connected = l == Interconnect::nvlink || l == Interconnect::xgmi;
  if (w > 2 && !fully_connected) return false;
  return l != Interconnect::pcie;  // two GPUs need P2P (NVLink bridge or PCIe P2P)
}

Term library_workspaces_term(const CommLayout& c) {
  const bool pipeline_only = c.pipeline_parallel > 1 && c.tensor_parallel == 1;
  // V1 0.15-0.17 measured 0.13 GiB on the same H100 where 0.18 and 0.19 measure 0.25 GiB.
  const bool before_018 = c.version.v1_engine() && c.version.at_least(0, 15) && !c.version.at_least(0, 18);
  if (before_018 && !pipeline_only) {
    return Term::product({Factor::gib(0.13)}, Rounding::nearest)
        .named("cuBLAS/attention workspaces and kernel images")
        .noted("measured on sm90, vLLM 0.15-0.17")
        .cite(kWorkspaceOldSource)
        .within(gib_range(0.125, 0.135));
  }
  const double gib = pipeline_only ? 0.07 : 0.25;
  return Term::product({Factor::gib(gib)}, Rounding::nearest)
      .named(pipeline_only ? "cuBLAS/attention workspaces and kernel images (pipeline stage)"
                           : "cuBLAS/attention workspaces and kernel images")
      .noted("measured on sm90")
      .cite(kWorkspaceSource)
      .within(pipeline_only ? gib_range(0.065, 0.075) : gib_range(0.235, 0.465));
}

/// One connection per channel of one algorithm (`what`: ring or tree) on this
/// interconnect; NCCL connects each algorithm when a collective first uses it
/// (NCCL_RUNTIME_CONNECT, on by default since v2.22).
Term connection_buffers(const CommLayout& c, std::string_view what) {
  const bool ll128 = full_nvlink(effective_link(c.link)) && capability(c) >= 70;
  const std::int64_t per_connection = kLlBytes + (ll128 ? kLl128Bytes : 0) + kSimpleBytes;
  return Term::product({Factor::of(nccl_channels(c), "channels"), Factor::of(1, what),
                        Factor::of(per_connection, ll128 ? "B (LL + LL128 + Simple buffers)" : "B (LL + Simple buffers)")})
      .shown_in(kMiB);
}

Term nccl_buffers_term(const CommLayout& c) {
  if (c.tensor_parallel < 2 || nccl_channels(c) == 0) return Term::given(Bytes{}).named("no NCCL buffers on the GPU");
  return connection_buffers(c, "tree connection")
      .named("NCCL tree connections of the tensor-parallel group (the profiling run's large all-reduce)")
      .cite(kNcclSource);
}

std::int64_t nccl_communicators(const CommLayout& c) {
  const std::int64_t world = checked::mul(c.tensor_parallel, c.pipeline_parallel);
  if (world < 2) return 0;
  return 1 + (c.tensor_parallel > 1 ? 1 : 0) + (c.pipeline_parallel > 1 ? 1 : 0) +
         (c.experts && c.tensor_parallel > 1 ? 1 : 0);
}

Term nccl_init_term(const CommLayout& c) {
  const std::int64_t comms = nccl_communicators(c);
  if (comms == 0) return Term::given(Bytes{}).named("no NCCL communicator");
  Term state = nccl_communicator_state_term();
  Term one = nccl_channels(c) == 0 ? std::move(state)
                                   : Term::sum(terms(connection_buffers(c, "ring connection (warm-up)"), std::move(state)));
  const ByteRange each = *one.range;
  return Term::product(terms(std::move(one)), {Factor::of(comms, "communicators (world, tp, pp, ep)")})
      .named("NCCL communicators at start")
      .cite(kInitSource)
      .within({each.low * comms, each.high * comms});
}

Term vllm_context_term(const CommLayout& c, int sm_count, RocmArch rocm) {
  return sum_nonzero(terms(driver_context_term(c.compute_capability, sm_count, rocm), nccl_init_term(c)));
}

Term nvls_buffers_term(const CommLayout& c) {
  const bool nvls = full_nvlink(effective_link(c.link)) && capability(c) >= 90 && c.tensor_parallel > 2;
  if (!nvls) return Term::given(Bytes{}).named("no NVLink SHARP buffers");
  return Term::product({Factor::of(16, "NVLS channels"), Factor::of(2, "(reduce + broadcast)"),
                        Factor::of(128 * 1024 * 8, "B (128 KiB chunk × 8 steps)"),
                        Factor::of(c.tensor_parallel, "heads")})
      .named("NCCL NVLink SHARP buffers")
      .cite(kNvlsSource);
}

Term custom_allreduce_term(const CommLayout& c) {
  if (!custom_allreduce_enabled(c)) return Term::given(Bytes{}).named("custom all-reduce disabled");
  return Term::product({Factor::of(2, "IPC buffers (meta + data)"), Factor::mib(8, "MiB max_size")})
      .named("vLLM custom all-reduce buffers")
      .cite(kCustomArSource);
}

bool symm_mem_on(const CommLayout& c) {
  const std::int64_t w = c.tensor_parallel;
  const int cc = capability(c);
  return c.version.at_least(0, 11) && full_nvlink(effective_link(c.link)) && (cc == 90 || cc == 100) &&
         (w == 2 || w == 4 || w == 6 || w == 8);
}

Term symm_mem_term(const CommLayout& c) {
  const std::int64_t w = c.tensor_parallel;
  const int cc = capability(c);
  if (!symm_mem_on(c)) return Term::given(Bytes{}).named("no symmetric-memory all-reduce");
  std::int64_t mib = w == 4 ? 32 : 64;
  if (cc == 100) mib = w == 2 ? 8 : w == 4 ? 32 : 128;
  return Term::product({Factor::mib(mib, "MiB symmetric buffer")})
      .named("torch symmetric-memory all-reduce buffer")
      .cite(kSymmSource);
}

Term tp_unattributed_term(const CommLayout& c) {
  if (c.tensor_parallel < 2) return Term::given(Bytes{}).named("single tensor-parallel rank");
  const ByteRange measured = gib_range(1.488, 1.578);
  if (!symm_mem_on(c)) {
    // Seen only where vLLM's symmetric-memory all-reduce is on (NVLink H100, vLLM 0.19); absent
    // from the tensor-parallel logs without it (A100, L40S, L4, RTX PRO 6000): none counted, the
    // range up to what the NVLink H100 sweep showed.
    return Term::given(Bytes{})
        .named("other tensor-parallel non-torch memory: none without symmetric-memory all-reduce")
        .cite(kUnattributedOffSource)
        .within({Bytes{}, measured.high});
  }
  return Term::product({Factor::gib(1.54)}, Rounding::nearest)
      .named("other tensor-parallel non-torch memory with symmetric-memory all-reduce, not attributed")
      .noted("measured on NVLink H100, vLLM 0.19")
      .cite(kUnattributedSource)
      .within(measured);
}

Term non_torch_term(const CommLayout& c) {
  Term t = sum_nonzero(terms(library_workspaces_term(c), nccl_buffers_term(c), nvls_buffers_term(c),
                             custom_allreduce_term(c), symm_mem_term(c), tp_unattributed_term(c)));
  if (c.link == Interconnect::unknown && c.tensor_parallel > 1) t.note = "interconnect not given: NVLink (NVSwitch) assumed";
  return t;
}

Bytes non_torch_increase(const CommLayout& c) {
  return non_torch_term(c).bytes;
}

}  // namespace vram::vllm
