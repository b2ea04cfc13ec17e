#include "vram/budget/term.hpp"

#include <catch2/catch.hpp>
#include <climits>

#include "vram/budget/runtime.hpp"

using namespace vram;

TEST_CASE("a product is the checked product of its factors", "[term]") {
  const Term t = Term::product({Factor::of(8192, "tokens"), Factor::of(4096, "hidden"), Factor::bytes(2)});
  CHECK(t.op == Term::Op::product);
  CHECK(t.bytes.in_bytes() == 67'108'864);  // 8,192 × 4,096 × 2
  CHECK(consistent(t));
  // 32 MiB = 32 × 2^20
  CHECK(Term::product({Factor::mib(32)}).bytes.in_bytes() == 33'554'432);
  // A zero factor makes the product zero before any overflow could occur.
  CHECK(Term::product({Factor::of(0, "layers"), Factor::of(INT64_MAX, "x"), Factor::of(INT64_MAX, "y")}).bytes ==
        Bytes{});
  CHECK_THROWS_AS(Term::product({Factor::of(1LL << 40, "x"), Factor::of(1LL << 40, "y")}), ArithmeticOverflow);
}

TEST_CASE("a real factor is rounded as the term states", "[term]") {
  // 85,031,714,816 B × 0.9 = 76,528,543,334.4 B
  const Bytes total = Bytes::of(85'031'714'816);
  auto scaled = [&](Rounding r) { return Term::product({Factor::bytes(total.in_bytes()), Factor::real(0.9, "u")}, r); };
  CHECK(scaled(Rounding::ceil).bytes.in_bytes() == 76'528'543'335);
  CHECK(scaled(Rounding::floor).bytes.in_bytes() == 76'528'543'334);
  CHECK(scaled(Rounding::nearest).bytes.in_bytes() == 76'528'543'334);
  CHECK(consistent(scaled(Rounding::ceil)));
  // 2.1 GiB = 2,254,857,830.4 B → 2,254,857,830 B, as Bytes::from_fraction rounds it.
  const Term nt = Term::product({Factor::gib(2.1)}, Rounding::nearest);
  CHECK(nt.bytes.in_bytes() == 2'254'857'830);
  CHECK(nt.bytes == Bytes::from_fraction(2.1, kGiB));
}

TEST_CASE("a figure known exactly is shown by factors within their rounding", "[term]") {
  // 9,555,148,800 params stored in 5,076,172,800 B: 0.53125 B per param.
  const Term w = Term::shown_as(Bytes::of(5'076'172'800), {Factor::of(9'555'148'800, "params"),
                                                           Factor::real(5'076'172'800.0 / 9'555'148'800.0, "B")});
  CHECK(consistent(w));
  Term off = Term::shown_as(Bytes::of(5'076'172'802), w.factors);  // 2 B beyond the product
  CHECK_FALSE(consistent(off));
}

TEST_CASE("sums, differences and maxima follow their parts, ranges too", "[term]") {
  const Term fixed = Term::given(Bytes::of(5));
  const Term ranged = Term::given(Bytes::of(2)).within({Bytes::of(1), Bytes::of(3)});
  const Term s = Term::sum(terms(Term(fixed), Term(ranged)));
  CHECK(s.bytes.in_bytes() == 7);
  REQUIRE(s.range);
  CHECK(*s.range == ByteRange{Bytes::of(6), Bytes::of(8)});
  // 10 − 5 − [1, 3]: [5 − 3, 5 − 1] = [2, 4] around 3
  const Term d = Term::difference(terms(Term::given(Bytes::of(10)), Term(fixed), Term(ranged)));
  CHECK(d.bytes.in_bytes() == 3);
  REQUIRE(d.range);
  CHECK(*d.range == ByteRange{Bytes::of(2), Bytes::of(4)});
  const Term m = Term::max_of(terms(Term(ranged), Term(fixed)));
  CHECK(m.bytes.in_bytes() == 5);
  REQUIRE(m.chosen() != nullptr);
  CHECK(m.chosen()->bytes.in_bytes() == 5);
  CHECK(*m.range == ByteRange{Bytes::of(5), Bytes::of(5)});
  CHECK(consistent(s));
  CHECK(consistent(d));
  CHECK(consistent(m));
  Term wrong = s;
  wrong.bytes = Bytes::of(8);
  CHECK_FALSE(consistent(wrong));
  Term outside = Term::given(Bytes::of(4)).within({Bytes::of(1), Bytes::of(3)});
  CHECK_FALSE(consistent(outside));
}

TEST_CASE("sum_nonzero drops zero parts and flattens plain sums", "[term]") {
  const Term one = sum_nonzero(terms(Term::product({Factor::of(3, "x"), Factor::bytes(2)}), Term::given(Bytes{})));
  CHECK(one.op == Term::Op::product);
  CHECK(one.bytes.in_bytes() == 6);
  const Term nested = sum_nonzero(terms(Term::sum(terms(Term::given(Bytes::of(1)), Term::given(Bytes::of(2)))),
                                        Term::given(Bytes::of(4)).named("named")));
  CHECK(nested.op == Term::Op::sum);
  CHECK(nested.parts.size() == 3);
  CHECK(nested.bytes.in_bytes() == 7);
  // All zero: the first part stands for them.
  const Term zero = sum_nonzero(terms(Term::product({Factor::of(0, "attention layers")}), Term::given(Bytes{})));
  CHECK(zero.bytes == Bytes{});
  CHECK(zero.factors.size() == 1);
}

TEST_CASE("ranges from ratios round outwards; GiB ranges to the nearest byte", "[term][range]") {
  // 999 B × 0.74 = 739.26 → 739; 999 B × 1.13 = 1,128.87 → 1,129
  CHECK(ratio_range(Bytes::of(999), 0.74, 1.13) == ByteRange{Bytes::of(739), Bytes::of(1129)});
  // 0.235 GiB = 252,329,328.64 B; 0.465 GiB = 499,289,948.16 B
  CHECK(gib_range(0.235, 0.465) == ByteRange{Bytes::of(252'329'329), Bytes::of(499'289'948)});
}

TEST_CASE("the NCCL communicator state is calibrated: its range holds the sweep's runs", "[term][runtime]") {
  const Term one = nccl_communicator_state_term();
  CHECK(one.bytes.in_bytes() == 300'647'711);  // 0.28 GiB
  REQUIRE(one.range);
  CHECK(one.range->low == Bytes::from_fraction(0.245, kGiB));
  CHECK(one.range->high == Bytes::from_fraction(0.295, kGiB));
  CHECK(consistent(one));
  CHECK(one.source.find("llm-d-planner") != std::string_view::npos);
}
