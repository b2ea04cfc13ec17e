// Colours of the report's components. Their labels come from the module; the
// metrics' labels are in the string tables (i18n/en.js, i18n/nl.js: metric.<name>).
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
