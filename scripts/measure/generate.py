#!/usr/bin/env python3
"""Measure Hugging Face transformers `generate()` on a GPU and write the runs as
accuracy cases (CONTRACT section 4) for `vram-budget accuracy`.

Each model is built from its catalog config (models/<owner>__<name>.json) with
random weights in bf16 -- the memory of a forward pass does not depend on the
values -- and run greedily at several prompt lengths, batch sizes and KV-cache
implementations. For every run the peak of torch's caching allocator is read
(torch.cuda.max_memory_allocated after reset_peak_memory_stats), with the
reserved peak and the versions kept in the notes.

    python3 scripts/measure/generate.py --out tests/data/cases/transformers_measured_h100.jsonl
    python3 scripts/measure/generate.py --models Qwen/Qwen2.5-0.5B --prompts 1024 8192 --batches 1 4
    python3 scripts/measure/generate.py --dry-run --out /tmp/cases.jsonl   # no GPU: the case lines with a
                                                                           # placeholder of 1 B, to check their format

Needs torch and transformers (the GPU machine has them); nothing in the project
depends on it. Runs that run out of memory are reported and skipped.
"""
import argparse
import datetime
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DEFAULT_MODELS = ["Qwen/Qwen2.5-0.5B", "Qwen/Qwen2.5-1.5B", "meta-llama/Llama-3.2-1B", "Qwen/Qwen3-8B"]
DEFAULT_CACHES = ["dynamic", "static", "offloaded"]


def catalog_config(model_id):
    """The catalog's config.json for `model_id`, without a quantization_config (random weights are plain bf16)."""
    path = os.path.join(ROOT, "models", model_id.replace("/", "__") + ".json")
    with open(path, encoding="utf-8") as f:
        entry = json.load(f)
    config = dict(entry["config"])
    config.pop("quantization_config", None)
    return config


def case_id(model_id, cache, attn, batch, prompt, new_tokens, gpu_tag):
    short = model_id.split("/")[-1].lower()
    return f"hf-measured-{short}-{cache}-{attn}-b{batch}-p{prompt}-n{new_tokens}-{gpu_tag}"


def make_case(run, env):
    """One accuracy case from one measured run (`run`) on one machine (`env`)."""
    scenario = {
        "v": 1,
        "workload": "inference",
        "model": run["model"],
        "weights": "bf16",
        "hardware": {"gpu": {"name": env["gpu_name"], "memory_bytes": env["gpu_memory_bytes"]}, "count": 1},
        "headroom": 0,
        "inference": {
            "engine": "transformers",
            "context": run["prompt"] + run["new_tokens"],
            "concurrency": run["batch"],
            "transformers": {
                "version": env["transformers"],
                "attn_implementation": run["attn"],
                "cache_implementation": run["cache"],
                "max_new_tokens": run["new_tokens"],
            },
        },
    }
    quote = json.dumps({k: run[k] for k in ("max_memory_allocated", "max_memory_reserved", "generated")}, sort_keys=True)
    notes = (
        f"Measured with scripts/measure/generate.py on {env['date']}: one {env['gpu_name']} ({env['gpu_memory_bytes']} B "
        f"total), torch {env['torch']}, CUDA {env['cuda']}, transformers {env['transformers']}. Random bf16 weights from the "
        f"catalog config; a random prompt of {run['prompt']} tokens per sequence, batch {run['batch']}, exactly "
        f"{run['new_tokens']} new tokens (min_new_tokens = max_new_tokens), greedy; attn_implementation {run['attn']}, "
        f"cache_implementation {run['cache']}. | Conversion: peak_allocated_bytes = torch.cuda.max_memory_allocated() after "
        f"reset_peak_memory_stats() and empty_cache() with the model already loaded, so it covers the weights and the whole "
        f"generate() call; max_memory_reserved {run['max_memory_reserved']} B kept here, not compared."
    )
    return {
        "id": case_id(run["model"], run["cache"], run["attn"], run["batch"], run["prompt"], run["new_tokens"], env["gpu_tag"]),
        "source": f"scripts/measure/generate.py (this repository), run on {env['date']}",
        "quote": quote,
        "kind": "exact",
        "scenario": scenario,
        "measured": {"peak_allocated_bytes": run["max_memory_allocated"]},
        "notes": notes,
    }


def measure(model, torch, args, run):
    """Fills run['max_memory_allocated'/'max_memory_reserved'/'generated'] from one generate() call."""
    device = torch.device("cuda")
    gen = torch.Generator(device="cpu").manual_seed(0)
    vocab = model.config.vocab_size
    ids = torch.randint(1, vocab, (run["batch"], run["prompt"]), generator=gen).to(device)
    mask = torch.ones_like(ids)
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    out = model.generate(
        input_ids=ids,
        attention_mask=mask,
        max_new_tokens=run["new_tokens"],
        min_new_tokens=run["new_tokens"],
        do_sample=False,
        cache_implementation=None if run["cache"] == "dynamic" else run["cache"],
        pad_token_id=0,
    )
    torch.cuda.synchronize()
    run["max_memory_allocated"] = int(torch.cuda.max_memory_allocated())
    run["max_memory_reserved"] = int(torch.cuda.max_memory_reserved())
    run["generated"] = int(out.shape[1] - run["prompt"])
    del out, ids, mask


def environment(dry_run):
    date = datetime.date.today().isoformat()
    if dry_run:
        return {"date": date, "gpu_name": "dry run", "gpu_memory_bytes": 80 * 10**9, "gpu_tag": "dry",
                "torch": "none", "cuda": "none", "transformers": "4.56.0"}
    import torch
    import transformers

    props = torch.cuda.get_device_properties(0)
    tag = "".join(c for c in props.name.lower().replace("nvidia", "") if c.isalnum())[:12] or "gpu"
    return {"date": date, "gpu_name": props.name, "gpu_memory_bytes": int(props.total_memory), "gpu_tag": tag,
            "torch": torch.__version__, "cuda": str(torch.version.cuda), "transformers": transformers.__version__}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", nargs="+", default=DEFAULT_MODELS)
    p.add_argument("--prompts", nargs="+", type=int, default=[512, 4096, 16384])
    p.add_argument("--batches", nargs="+", type=int, default=[1, 8])
    p.add_argument("--new-tokens", type=int, default=64)
    p.add_argument("--caches", nargs="+", default=DEFAULT_CACHES, choices=["dynamic", "static", "offloaded"])
    p.add_argument("--attn", nargs="+", default=["sdpa"], choices=["sdpa", "eager"])
    p.add_argument("--budget-s", type=float, default=420.0, help="stop starting new runs after this many seconds")
    p.add_argument("--out", required=True)
    p.add_argument("--dry-run", action="store_true", help="no GPU: write the case lines with 1 B as the measurement")
    args = p.parse_args()

    env = environment(args.dry_run)
    start = time.monotonic()
    cases, skipped = [], []
    torch = None
    if not args.dry_run:
        import torch  # noqa: F811
        from transformers import AutoConfig, AutoModelForCausalLM
    for model_id in args.models:
        config = catalog_config(model_id)
        model = None
        for attn in args.attn:
            if not args.dry_run:
                del model
                torch.cuda.empty_cache()
                cfg = AutoConfig.for_model(**config)
                cfg._attn_implementation = attn
                with torch.device("cuda"):
                    model = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16, attn_implementation=attn)
                model.eval()
            for cache in args.caches:
                for batch in args.batches:
                    for prompt in args.prompts:
                        placeholder = 1 if args.dry_run else 0
                        run = {"model": model_id, "attn": attn, "cache": cache, "batch": batch, "prompt": prompt,
                               "new_tokens": args.new_tokens, "max_memory_allocated": placeholder,
                               "max_memory_reserved": placeholder, "generated": args.new_tokens}
                        if time.monotonic() - start > args.budget_s:
                            skipped.append((run, "time budget"))
                            continue
                        if not args.dry_run:
                            try:
                                with torch.inference_mode():
                                    measure(model, torch, args, run)
                            except torch.cuda.OutOfMemoryError:
                                torch.cuda.empty_cache()
                                skipped.append((run, "out of memory"))
                                continue
                            except Exception as e:  # a cache a version lacks, a model it cannot build
                                skipped.append((run, f"{type(e).__name__}: {e}"[:200]))
                                continue
                        cases.append(make_case(run, env))
                        print(f"{model_id} {attn} {cache} b{batch} p{prompt}: {run['max_memory_allocated']:,} B allocated",
                              flush=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    for run, why in skipped:
        print(f"skipped {run['model']} {run['attn']} {run['cache']} b{run['batch']} p{run['prompt']}: {why}", file=sys.stderr)
    print(f"{len(cases)} cases written to {args.out}; {len(skipped)} skipped")


if __name__ == "__main__":
    main()
