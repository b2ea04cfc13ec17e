export const COLOURS = {
  weights: '#3b6fd4', kv_cache: '#c46f0a', activations: '#25845a',
  non_torch: '#8a63c7', cuda_graphs: '#c2497b', cuda_context: '#5f6b7a',
  rotary_cache: '#1b7f96', allocator_cache: '#8c7020', gradients: '#c73a4d',
  optimizer_state: '#7d4e24', master_weights: '#4d8f2a', text_encoder: '#5c6bc0',
  vae: '#00796b', latents: '#6d5bd0', vae_decode: '#00796b',
};
export const FALLBACK_COLOURS = ['#8a55d0', '#2f7f7f', '#a85a18', '#5f7f1f', '#aa3377', '#337799'];
export function colourOf(id, index) {
  return COLOURS[id] || FALLBACK_COLOURS[index % FALLBACK_COLOURS.length];
}

export const METRIC_LABELS = {
  weights_bytes: 'Weights resident on the GPU',
  kv_cache_bytes: 'KV cache allocated',
  kv_bytes_per_token: 'KV bytes per token (all layers)',
  kv_capacity_tokens: 'Tokens the KV pool holds',
  max_concurrency: 'Sequences of this context that fit',
  activation_bytes: 'Peak transient working memory',
  non_torch_bytes: 'Memory outside the framework allocator',
  cuda_graph_bytes: 'CUDA graph pools',
  peak_allocated_bytes: 'Peak of live tensors',
  peak_reserved_bytes: 'Peak held by the allocator',
  peak_device_bytes: 'Peak the driver sees',
  max_context_tokens: 'Longest context that fits',
};
