// Raw DEFLATE decoding after RFC 1951 (https://www.rfc-editor.org/rfc/rfc1951):
// stored, fixed-Huffman and dynamic-Huffman blocks, canonical codes (section
// 3.2.2) looked up nine bits at a time with the longer ones decoded a bit at a
// time, lengths and distances from the tables of section 3.2.5.
#include "vram/io/inflate.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "vram/error.hpp"

namespace vram::io {
namespace {

constexpr int kMaxBits = 15;           // longest code, section 3.2.2
constexpr std::size_t kMaxSymbols = 288;  // literal/length alphabet with its two unused codes
/// Codes up to this many bits are found with one table lookup; most literal
/// and distance codes of a dynamic block are this short.
constexpr int kFastBits = 9;

// Section 3.2.5: lengths 3..258 for codes 257..285, distances 1..32768 for codes 0..29.
constexpr std::array<std::uint16_t, 29> kLengthBase{3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                                    31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> kLengthExtra{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                    2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint16_t, 30> kDistanceBase{1,   2,   3,   4,    5,    7,    9,    13,    17,    25,
                                                      33,  49,  65,  97,   129,  193,  257,  385,   513,   769,
                                                      1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<std::uint8_t, 30> kDistanceExtra{0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                                      6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// Section 3.2.7: the order in which the code-length code's lengths are sent.
constexpr std::array<std::uint8_t, 19> kCodeLengthOrder{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/// The stream, read least significant bit first (section 3.1.1).
class Bits {
 public:
  Bits(std::span<const std::uint8_t> in, const std::string& path) : in_(in), path_(path) {}

  /// The next `n` bits (0 to 16) as a number, first bit lowest.
  unsigned take(int n) {
    while (count_ < n) {
      if (pos_ == in_.size()) fail("the stream ends early");
      held_ |= static_cast<std::uint32_t>(in_[pos_++]) << count_;
      count_ += 8;
    }
    const unsigned v = held_ & ((1u << n) - 1u);
    held_ >>= n;
    count_ -= n;
    return v;
  }

  /// The next `kFastBits` bits without taking them; past the end of the stream
  /// the missing bits read as zero (`drop` refuses to take them).
  unsigned peek_fast() {
    while (count_ < kFastBits && pos_ < in_.size()) {
      held_ |= static_cast<std::uint32_t>(in_[pos_++]) << count_;
      count_ += 8;
    }
    return held_ & ((1u << kFastBits) - 1u);
  }

  /// Takes `n` bits already peeked.
  void drop(int n) {
    if (n > count_) fail("the stream ends early");
    held_ >>= n;
    count_ -= n;
  }

  /// Skips to the next byte boundary (a stored block's header).
  void align() {
    held_ = 0;
    count_ = 0;
  }

  /// `n` whole bytes, after `align()`.
  std::span<const std::uint8_t> bytes(std::size_t n) {
    if (in_.size() - pos_ < n) fail("a stored block runs past the end of the stream");
    const auto out = in_.subspan(pos_, n);
    pos_ += n;
    return out;
  }

  [[noreturn]] void fail(std::string_view why) const {
    throw InputError(path_, "is not a valid DEFLATE stream: " + std::string(why) + " (near byte " +
                                std::to_string(pos_) + ")");
  }

 private:
  std::span<const std::uint8_t> in_;
  const std::string& path_;
  std::size_t pos_ = 0;
  std::uint32_t held_ = 0;
  int count_ = 0;
};

/// A canonical Huffman code: how many codes each length has, the symbols in
/// code order, and for every `kFastBits`-bit window of the stream the symbol
/// and length of the short code it starts with (0: a longer code, or none).
struct Huffman {
  std::array<std::uint16_t, kMaxBits + 1> count{};
  std::array<std::uint16_t, kMaxSymbols> symbol{};
  std::array<std::uint16_t, std::size_t{1} << kFastBits> fast{};
};

/// `code`'s `len` bits in reverse order: the stream sends a code's most
/// significant bit first, into the low end of the bits read.
unsigned reversed(unsigned code, int len) {
  unsigned r = 0;
  for (int i = 0; i < len; ++i) r |= ((code >> i) & 1u) << (len - 1 - i);
  return r;
}

/// Fills `h.fast` from the canonical codes: each code of `len` ≤ kFastBits bits
/// owns every window whose low `len` bits are its reversed bits.
void fill_fast(Huffman& h) {
  unsigned code = 0;
  std::size_t index = 0;
  for (int len = 1; len <= kFastBits; ++len) {
    for (unsigned k = 0; k < h.count[len]; ++k) {
      const auto entry = static_cast<std::uint16_t>((h.symbol[index + k] << 4) | static_cast<unsigned>(len));
      for (unsigned w = reversed(code + k, len); w < h.fast.size(); w += 1u << len) h.fast[w] = entry;
    }
    index += h.count[len];
    code = (code + h.count[len]) << 1;
  }
}

Huffman build_code(std::span<const std::uint8_t> lengths, const Bits& bits) {
  Huffman h;
  if (lengths.size() > kMaxSymbols) bits.fail("more code lengths than symbols");
  for (std::uint8_t l : lengths) h.count[l]++;
  h.count[0] = 0;
  int left = 1;  // codes of the current length not yet used
  for (int len = 1; len <= kMaxBits; ++len) {
    left = 2 * left - h.count[len];
    if (left < 0) bits.fail("more codes of one length than the code space holds");
  }
  std::array<std::uint16_t, kMaxBits + 1> next{};
  for (int len = 1; len < kMaxBits; ++len) next[len + 1] = static_cast<std::uint16_t>(next[len] + h.count[len]);
  for (std::size_t sym = 0; sym < lengths.size(); ++sym) {
    if (lengths[sym] != 0) h.symbol[next[lengths[sym]]++] = static_cast<std::uint16_t>(sym);
  }
  fill_fast(h);
  return h;
}

/// The next symbol: a short code from the table, a longer one bit by bit
/// (codes are sent most significant bit first, section 3.1.1).
int decode(Bits& bits, const Huffman& h) {
  if (const unsigned entry = h.fast[bits.peek_fast()]; entry != 0) {
    bits.drop(static_cast<int>(entry & 15u));
    return static_cast<int>(entry >> 4);
  }
  int code = 0, first = 0, index = 0;
  for (int len = 1; len <= kMaxBits; ++len) {
    code |= static_cast<int>(bits.take(1));
    const int count = h.count[len];
    if (code - first < count) return h.symbol[static_cast<std::size_t>(index + code - first)];
    index += count;
    first = (first + count) << 1;
    code <<= 1;
  }
  bits.fail("a code that is not in the block's table");
}

void put_back_reference(std::string& out, std::size_t distance, std::size_t length, std::size_t max_size,
                        const Bits& bits) {
  if (distance > out.size()) bits.fail("a distance reaching before the start of the output");
  if (length > max_size - out.size()) bits.fail("more output than the stated size");
  const std::size_t at = out.size();
  out.resize(at + length);
  char* p = out.data();
  for (std::size_t i = 0; i < length; ++i) p[at + i] = p[at - distance + i];  // may overlap what it writes
}

void inflate_codes(Bits& bits, const Huffman& lit, const Huffman& dist, std::string& out, std::size_t max_size) {
  for (;;) {
    const int sym = decode(bits, lit);
    if (sym < 256) {
      if (out.size() == max_size) bits.fail("more output than the stated size");
      out.push_back(static_cast<char>(sym));
      continue;
    }
    if (sym == 256) return;
    const auto l = static_cast<std::size_t>(sym - 257);
    if (l >= kLengthBase.size()) bits.fail("a length code above 285");
    const std::size_t length = kLengthBase[l] + bits.take(kLengthExtra[l]);
    const auto d = static_cast<std::size_t>(decode(bits, dist));
    if (d >= kDistanceBase.size()) bits.fail("a distance code above 29");
    put_back_reference(out, kDistanceBase[d] + bits.take(kDistanceExtra[d]), length, max_size, bits);
  }
}

void inflate_stored(Bits& bits, std::string& out, std::size_t max_size) {
  bits.align();
  const unsigned len = bits.take(16);
  if ((bits.take(16) ^ 0xffffu) != len) bits.fail("a stored block whose length and its complement disagree");
  if (len > max_size - out.size()) bits.fail("more output than the stated size");
  const auto b = bits.bytes(len);
  out.append(reinterpret_cast<const char*>(b.data()), b.size());
}

void inflate_fixed(Bits& bits, std::string& out, std::size_t max_size) {
  std::array<std::uint8_t, kMaxSymbols> lit{};  // section 3.2.6
  std::fill(lit.begin(), lit.begin() + 144, std::uint8_t{8});
  std::fill(lit.begin() + 144, lit.begin() + 256, std::uint8_t{9});
  std::fill(lit.begin() + 256, lit.begin() + 280, std::uint8_t{7});
  std::fill(lit.begin() + 280, lit.end(), std::uint8_t{8});
  std::array<std::uint8_t, 30> dist{};
  dist.fill(5);
  inflate_codes(bits, build_code(lit, bits), build_code(dist, bits), out, max_size);
}

/// The code lengths of a dynamic block's two alphabets, run-length coded (section 3.2.7).
std::array<std::uint8_t, 320> read_code_lengths(Bits& bits, std::size_t total) {
  std::array<std::uint8_t, 19> cl{};
  const unsigned ncode = bits.take(4) + 4;
  for (unsigned i = 0; i < ncode; ++i) cl[kCodeLengthOrder[i]] = static_cast<std::uint8_t>(bits.take(3));
  const Huffman code = build_code(cl, bits);
  std::array<std::uint8_t, 320> lengths{};
  std::size_t i = 0;
  while (i < total) {
    const int sym = decode(bits, code);
    if (sym < 16) {
      lengths[i++] = static_cast<std::uint8_t>(sym);
      continue;
    }
    if (sym == 16 && i == 0) bits.fail("a repeated code length with none before it");
    const std::uint8_t value = sym == 16 ? lengths[i - 1] : 0;
    const std::size_t repeat = sym == 16 ? 3 + bits.take(2) : sym == 17 ? 3 + bits.take(3) : 11 + bits.take(7);
    if (repeat > total - i) bits.fail("code lengths running past the end of the table");
    for (std::size_t k = 0; k < repeat; ++k) lengths[i++] = value;
  }
  return lengths;
}

void inflate_dynamic(Bits& bits, std::string& out, std::size_t max_size) {
  const std::size_t nlit = bits.take(5) + 257;
  const std::size_t ndist = bits.take(5) + 1;
  if (nlit > 286 || ndist > 30) bits.fail("more literal/length or distance codes than the format has");
  const auto lengths = read_code_lengths(bits, nlit + ndist);
  if (lengths[256] == 0) bits.fail("a block without an end-of-block code");
  const std::span<const std::uint8_t> all(lengths.data(), nlit + ndist);
  inflate_codes(bits, build_code(all.first(nlit), bits), build_code(all.subspan(nlit), bits), out, max_size);
}

}  // namespace

std::string inflate_raw(std::span<const std::uint8_t> in, std::size_t max_size, const std::string& path) {
  Bits bits(in, path);
  std::string out;
  out.reserve(std::min(max_size, in.size() * 8 + 1024));
  for (bool last = false; !last;) {
    last = bits.take(1) == 1;
    switch (bits.take(2)) {
      case 0: inflate_stored(bits, out, max_size); break;
      case 1: inflate_fixed(bits, out, max_size); break;
      case 2: inflate_dynamic(bits, out, max_size); break;
      default: bits.fail("block type 3, which the format reserves");
    }
  }
  return out;
}

}  // namespace vram::io
