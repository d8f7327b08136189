#include "jit/x86/vector_math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "jit/cpu_kernels.h"
#include "jit/fusion.h"
#include "jit/host.h"
#include "jit/loop_nest.h"
#include "jit/numpy_loops.h"
#include "jit/region.h"

namespace npy::jit {
namespace {

// These tests check npython's own vector code, which kernels use with
// NPY_MATH=fast (by default they call NumPy's loops).
class FastMath : public ::testing::Environment {
 public:
  void SetUp() override { set_fast_math(true); }
};
::testing::Environment* const kFastMath = ::testing::AddGlobalTestEnvironment(new FastMath);

constexpr int kFlags = FE_INVALID | FE_OVERFLOW | FE_DIVBYZERO | FE_UNDERFLOW;
constexpr long double kPio2 = 1.570796326794896619231321691639751442L;
constexpr long double kLn2 = 0.693147180559945309417232121458176568L;

struct Case {
  const char* name;
  VectorFunction f;
  Op op;
  long double (*exact)(long double);  // the reference for float64
  double (*libm64)(double);           // the reference for float32; libm for float64
  float (*libm32)(float);             // libm for float32
};

const Case kSin{"sin", VectorFunction::sin, Op::sin, [](long double x) { return std::sin(x); },
                [](double x) { return std::sin(x); }, [](float x) { return std::sin(x); }};
const Case kCos{"cos", VectorFunction::cos, Op::cos, [](long double x) { return std::cos(x); },
                [](double x) { return std::cos(x); }, [](float x) { return std::cos(x); }};
const Case kExp{"exp", VectorFunction::exp, Op::exp, [](long double x) { return std::exp(x); },
                [](double x) { return std::exp(x); }, [](float x) { return std::exp(x); }};
const Case kLog{"log", VectorFunction::log, Op::log, [](long double x) { return std::log(x); },
                [](double x) { return std::log(x); }, [](float x) { return std::log(x); }};
const Case kExp2{"exp2", VectorFunction::exp2, Op::exp2, [](long double x) { return std::exp2(x); },
                 [](double x) { return std::exp2(x); }, [](float x) { return std::exp2(x); }};
const Case kLog2{"log2", VectorFunction::log2, Op::log2, [](long double x) { return std::log2(x); },
                 [](double x) { return std::log2(x); }, [](float x) { return std::log2(x); }};
const Case kLog10{"log10", VectorFunction::log10, Op::log10, [](long double x) { return std::log10(x); },
                  [](double x) { return std::log10(x); }, [](float x) { return std::log10(x); }};
const Case kExpm1{"expm1", VectorFunction::expm1, Op::expm1, [](long double x) { return std::expm1(x); },
                  [](double x) { return std::expm1(x); }, [](float x) { return std::expm1(x); }};
const Case kLog1p{"log1p", VectorFunction::log1p, Op::log1p, [](long double x) { return std::log1p(x); },
                  [](double x) { return std::log1p(x); }, [](float x) { return std::log1p(x); }};
const Case kTan{"tan", VectorFunction::tan, Op::tan, [](long double x) { return std::tan(x); },
                [](double x) { return std::tan(x); }, [](float x) { return std::tan(x); }};

const Case* const kCases[] = {&kSin, &kCos, &kExp, &kLog, &kExp2, &kLog2, &kLog10, &kExpm1, &kLog1p, &kTan};

// The function as kernels compute it: a kernel of the one element-wise op,
// compiled at one vector width, run in place over whole vectors (one at a
// time where each block's flags are compared).
template <class T>
class KernelFunction {
 public:
  KernelFunction(KernelCompiler& backend, const Case& c) {
    constexpr DType kType = std::is_same_v<T, double> ? DType::kFloat64 : DType::kFloat32;
    Region region;
    Node x;
    x.dtype = x.compute = kType;
    x.shape = {1024};
    const int in = region.add(x);
    Node f = x;
    f.op = c.op;
    f.inputs[0] = in;
    region.add(f);
    const std::vector<Step> steps = plan_region(region, {true, true}, {false, true},
                                                [&backend](const Region& r, int node) {
                                                  return backend.fuse_class(r, node);
                                                });
    for (const Step& step : steps) {
      if (!step.eager && !kernel_) kernel_ = backend.compile(lower_group(region, step.group), KernelOptions{});
    }
  }

  bool compiled() const { return kernel_ != nullptr; }
  int lanes() const { return kernel_->lanes; }

  // `count` elements (whole vectors) from `data`.
  void apply(T* data, std::size_t count) const {
    void* const slots[] = {data, data};
    const std::int64_t row_steps[] = {0, 0};
    kernel_->entry(slots, static_cast<std::int64_t>(count) / kernel_->lanes, nullptr, nullptr, 1, row_steps, 0);
  }

 private:
  std::unique_ptr<Kernel> kernel_;
};

// The vector widths this CPU runs kernels at, widest last.
std::vector<VectorIsa> host_widths() {
  std::vector<VectorIsa> widths;
  if (host_vector_isa() != VectorIsa::kSse2) widths.push_back(VectorIsa::kAvx2);
  if (host_vector_isa() == VectorIsa::kAvx512) widths.push_back(VectorIsa::kAvx512);
  return widths;
}

KernelCompiler& backend_for(VectorIsa isa) {
  static const std::unique_ptr<KernelCompiler> avx2 = make_x86_compiler(VectorIsa::kAvx2);
  static const std::unique_ptr<KernelCompiler> avx512 = make_x86_compiler(VectorIsa::kAvx512);
  return isa == VectorIsa::kAvx512 ? *avx512 : *avx2;
}

// Runs `check(function, width name)` at each width the CPU has.
template <class T, class Check>
void at_each_width(const Case& c, Check check) {
  const std::vector<VectorIsa> widths = host_widths();
  if (widths.empty()) GTEST_SKIP() << "no AVX2: kernels are not compiled here";
  for (VectorIsa isa : widths) {
    const KernelFunction<T> fn(backend_for(isa), c);
    ASSERT_TRUE(fn.compiled()) << c.name << " at " << vector_isa_name(isa);
    check(fn, vector_isa_name(isa));
  }
}

// Inputs come in whole vectors of the widest kernel.
template <class T>
constexpr int kMaxLanes = kMaxVectorBytes / sizeof(T);

template <class T>
T libm(const Case& c, T x) {
  if constexpr (std::is_same_v<T, double>) {
    return c.libm64(x);
  } else {
    return c.libm32(x);
  }
}

// The result in a wider type; rounded to T, the correctly rounded result (up
// to rare double roundings).
template <class T>
long double exact(const Case& c, T x) {
  if constexpr (std::is_same_v<T, double>) {
    return c.exact(x);
  } else {
    return c.libm64(x);
  }
}

// Distance in representable values; +0 and -0 count as the same value.
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  using Int = std::conditional_t<std::is_same_v<T, double>, std::int64_t, std::int32_t>;
  const auto ordered = [](T v) {
    Int i;
    std::memcpy(&i, &v, sizeof i);
    return static_cast<std::int64_t>(i < 0 ? std::numeric_limits<Int>::min() - i : i);
  };
  // In long double, which holds the difference exactly even between -inf and +inf.
  return static_cast<std::uint64_t>(std::fabs(static_cast<long double>(ordered(a)) - ordered(b)));
}

// Deterministic test inputs for one function and element type.
template <class T>
class Inputs {
 public:
  using L = std::numeric_limits<T>;

  std::vector<T> values;

  void add(long double v) { values.push_back(static_cast<T>(v)); }

  void uniform(long double a, long double b, int count) {
    for (int i = 0; i < count; ++i) add(a + (b - a) * unit());
  }

  enum class Signs { positive, negative, both };

  // center + m, magnitudes m log-uniform in [lo, hi].
  void log_uniform(long double lo, long double hi, int count, Signs signs, long double center = 0) {
    const long double a = std::log2(lo);
    const long double b = std::log2(hi);
    for (int i = 0; i < count; ++i) {
      const long double m = std::min(hi, std::exp2(a + (b - a) * unit()));
      const bool negative = signs == Signs::negative || (signs == Signs::both && (rng_() & 1));
      add(center + (negative ? -m : m));
    }
  }

  // Values within max_ulps of point(k), k uniform in [k_lo, k_hi].
  template <class Point>
  void near(int count, std::int64_t k_lo, std::int64_t k_hi, int max_ulps, Point point) {
    std::uniform_int_distribution<std::int64_t> ks(k_lo, k_hi);
    std::uniform_int_distribution<int> steps(-max_ulps, max_ulps);
    for (int i = 0; i < count; ++i) {
      T v = static_cast<T>(point(ks(rng_)));
      const int s = steps(rng_);
      for (int j = 0; j < std::abs(s); ++j) v = std::nextafter(v, s < 0 ? -L::infinity() : L::infinity());
      values.push_back(v);
    }
  }

  void near_value(long double v, int count, int max_ulps) {
    near(count, 0, 0, max_ulps, [v](std::int64_t) { return v; });
  }

  void specials() {
    for (T v : {T(0), L::infinity(), L::quiet_NaN(), L::max(), L::min(), L::denorm_min(), L::epsilon(), T(1),
                T(0.5), T(2), T(100), T(1e6)}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }

 private:
  long double unit() { return static_cast<long double>(rng_() >> 11) * 0x1p-53L; }

  std::mt19937_64 rng_{0x5eed};
};

template <class T>
std::vector<T> inputs_for(VectorFunction f) {
  using L = std::numeric_limits<T>;
  using Signs = typename Inputs<T>::Signs;
  Inputs<T> in;
  in.specials();
  switch (f) {
    case VectorFunction::sin:
    case VectorFunction::cos:
    case VectorFunction::tan: {
      const long double limit = 0x1p21L;  // the end of the vector code's reduction
      const std::int64_t k_max = static_cast<std::int64_t>(limit / kPio2);
      const auto multiple = [](std::int64_t k) { return k * kPio2; };
      in.uniform(-8 * kPio2, 8 * kPio2, 300000);
      in.log_uniform(L::denorm_min(), 0x1p-20L, 100000, Signs::both);
      in.log_uniform(0x1p-20L, limit, 200000, Signs::both);
      in.log_uniform(limit, L::max(), 50000, Signs::both);
      in.near(50000, -100, 100, 4, multiple);
      in.near(150000, 1, k_max, 4, multiple);
      in.near(50000, k_max - 2000, k_max, 4, multiple);
      // Where round(x * 2/pi) changes.
      in.near(100000, -k_max, k_max, 4, [](std::int64_t k) { return (k + 0.5L) * kPio2; });
      for (long double v : {limit, 0x1p-27L, 0x1p-26L, static_cast<long double>(L::min())}) {
        in.near_value(v, 2000, 50);
        in.near_value(-v, 2000, 50);
      }
      break;
    }
    case VectorFunction::exp:
    case VectorFunction::exp2:
    case VectorFunction::expm1: {
      // In units of the function's base: ln 2 for exp and expm1, 1 for exp2.
      const long double unit = f == VectorFunction::exp2 ? 1 : kLn2;
      const auto log_b = [unit](long double v) { return std::log2(v) * unit; };
      const long double overflow = log_b(L::max());
      const long double normal = log_b(L::min());
      const long double zero = log_b(L::denorm_min()) - unit / 2;
      const long double limit = f == VectorFunction::exp2 ? 1021 : 708;  // the vector code's domain
      in.uniform(-10, 10, 210000);
      in.uniform(zero - 5, overflow + 5, 300000);
      for (long double v : {overflow, normal, zero}) in.uniform(v - 2, v + 2, 50000);
      for (long double v :
           {overflow, normal, zero, limit, -limit, 87.0L, -87.0L, 125.0L, -125.0L, 0x1p-60L, -0x1p-60L}) {
        in.near_value(v, 2000, 50);
      }
      in.log_uniform(L::denorm_min(), 0x1p-10L, 200000, Signs::both);
      // Where round(64 x / unit) changes, and where it is exact.
      const auto k_min = static_cast<std::int64_t>(zero / unit * 64);
      const auto k_max = static_cast<std::int64_t>(overflow / unit * 64);
      in.near(100000, k_min, k_max, 4, [unit](std::int64_t k) { return (k + 0.5L) * unit / 64; });
      in.near(50000, k_min, k_max, 4, [unit](std::int64_t k) { return k * unit / 64; });
      in.log_uniform(1000, L::max(), 30000, Signs::both);
      // Where expm1 switches method, and where it clamps.
      for (long double v : {kLn2 / 2, -kLn2 / 2, 40.0L, -40.0L}) in.near_value(v, 2000, 50);
      in.uniform(-1, 1, 100000);
      break;
    }
    case VectorFunction::log1p: {
      in.uniform(-1, 10, 250000);
      in.log_uniform(L::denorm_min(), 1, 250000, Signs::both);
      in.log_uniform(1, L::max(), 200000, Signs::positive);
      in.log_uniform(L::epsilon() / 4, 0.5L, 200000, Signs::both, -1);  // near the pole
      in.near_value(-1, 20000, 1000);
      in.log_uniform(1, L::max(), 50000, Signs::negative);
      // Where u = 1 + x crosses the split points of log.
      in.near(50000, -60, L::max_exponent - 1, 4,
              [](std::int64_t k) { return std::sqrt(2.0L) * std::ldexp(1.0L, k) - 1; });
      for (long double v : {0x1p1000L, 0x1p53L, -0.5L}) in.near_value(v, 2000, 50);
      break;
    }
    case VectorFunction::log:
    case VectorFunction::log2:
    case VectorFunction::log10: {
      const int min_exp = L::min_exponent - 1;
      const int max_exp = L::max_exponent - 1;
      in.uniform(0, 10, 200000);
      in.uniform(0.5L, 2, 100000);
      in.log_uniform(L::epsilon() / 4, 0.25L, 200000, Signs::both, 1);
      in.near_value(1, 20000, 1000);
      in.log_uniform(L::min(), L::max(), 300000, Signs::positive);
      in.log_uniform(L::denorm_min(), L::min(), 50000, Signs::positive);
      in.log_uniform(L::denorm_min(), L::max(), 50000, Signs::negative);
      // Where the mantissa split switches k, and powers of two.
      in.near(50000, min_exp, max_exp, 4,
              [](std::int64_t k) { return std::sqrt(2.0L) * std::ldexp(1.0L, k); });
      in.near(30000, min_exp, max_exp, 2, [](std::int64_t k) { return std::ldexp(1.0L, k); });
      for (int k = L::min_exponent - L::digits; k < L::max_exponent; ++k) in.add(std::ldexp(1.0L, k));
      for (long double p = 1; p < L::max(); p *= 10) in.add(p);
      break;
    }
  }
  while (in.values.size() % kMaxLanes<T> != 0) in.values.push_back(T(1));
  return in.values;
}

const char* width_name(bool float64) { return float64 ? "float64" : "float32"; }

// Runs every input through kernels of the function at each width:
// accuracy against the reference, NaN-ness and signs, and the flags each
// vector raises against libm's on the same lanes.
template <class T>
void check_function(const Case& c) {
  const std::vector<T> xs = inputs_for<T>(c.f);
  ASSERT_GE(xs.size(), 1000000u);
  at_each_width<T>(c, [&](const KernelFunction<T>& fn, const char* width) {
    const int n = fn.lanes();
    std::uint64_t max_ulp = 0;
    T worst = 0;
    double max_error = 0;  // in ulps of the exact value, unrounded
    T worst_error = 0;
    int failures = 0;
    const auto fail = [&failures](const std::string& what) {
      if (++failures <= 10) ADD_FAILURE() << what;
    };
    std::vector<T> block(n);
    std::vector<long double> wide(n);
    std::vector<T> want(n);
    volatile T sink;
    for (std::size_t b = 0; b < xs.size(); b += n) {
      for (int i = 0; i < n; ++i) {
        wide[i] = exact(c, xs[b + i]);
        want[i] = static_cast<T>(wide[i]);
      }
      std::copy_n(&xs[b], n, block.begin());
      std::feclearexcept(FE_ALL_EXCEPT);
      fn.apply(block.data(), n);
      const int got_flags = std::fetestexcept(kFlags);
      std::feclearexcept(FE_ALL_EXCEPT);
      for (int i = 0; i < n; ++i) sink = libm(c, xs[b + i]);
      const int want_flags = std::fetestexcept(kFlags);
      if (got_flags != want_flags) {
        char text[200];
        std::snprintf(text, sizeof text, "%s: flags %#x, libm %#x, vector from %a", width, got_flags, want_flags,
                      static_cast<double>(xs[b]));
        fail(text);
      }
      for (int i = 0; i < n; ++i) {
        const T x = xs[b + i];
        const T got = block[i];
        char text[200];
        std::snprintf(text, sizeof text, "%s: %s(%a) = %a, want %a", width, c.name, static_cast<double>(x),
                      static_cast<double>(got), static_cast<double>(want[i]));
        if (std::isnan(got) || std::isnan(want[i])) {
          if (std::isnan(got) != std::isnan(want[i])) fail(text);
          continue;
        }
        if (std::signbit(got) != std::signbit(want[i])) fail(std::string("sign: ") + text);
        const std::uint64_t d = ulp_distance(got, want[i]);
        if (d > max_ulp) {
          max_ulp = d;
          worst = x;
        }
        if (std::isfinite(want[i])) {
          const T a = std::fabs(want[i]);
          const long double ulp = std::nextafter(a, std::numeric_limits<T>::infinity()) - a;
          const double e = static_cast<double>(std::fabs(got - wide[i]) / ulp);
          if (e > max_error) {
            max_error = e;
            worst_error = x;
          }
        }
      }
    }
    (void)sink;
    std::printf(
        "[ VectorMath ] %s %s, %s kernels: %zu inputs, max %llu ulp from the rounded reference (at %a), "
        "max error %.3f ulp (at %a)\n",
        c.name, width_name(std::is_same_v<T, double>), width, xs.size(), static_cast<unsigned long long>(max_ulp),
        static_cast<double>(worst), max_error, static_cast<double>(worst_error));
    EXPECT_LE(max_ulp, 2u) << c.name << " " << width << " worst input " << worst;
    EXPECT_EQ(failures, 0);
  });
}

TEST(VectorMath, SinFloat64) { check_function<double>(kSin); }
TEST(VectorMath, SinFloat32) { check_function<float>(kSin); }
TEST(VectorMath, CosFloat64) { check_function<double>(kCos); }
TEST(VectorMath, CosFloat32) { check_function<float>(kCos); }
TEST(VectorMath, ExpFloat64) { check_function<double>(kExp); }
TEST(VectorMath, ExpFloat32) { check_function<float>(kExp); }
TEST(VectorMath, LogFloat64) { check_function<double>(kLog); }
TEST(VectorMath, LogFloat32) { check_function<float>(kLog); }
TEST(VectorMath, Exp2Float64) { check_function<double>(kExp2); }
TEST(VectorMath, Exp2Float32) { check_function<float>(kExp2); }
TEST(VectorMath, Log2Float64) { check_function<double>(kLog2); }
TEST(VectorMath, Log2Float32) { check_function<float>(kLog2); }
TEST(VectorMath, Log10Float64) { check_function<double>(kLog10); }
TEST(VectorMath, Log10Float32) { check_function<float>(kLog10); }
TEST(VectorMath, Expm1Float64) { check_function<double>(kExpm1); }
TEST(VectorMath, Expm1Float32) { check_function<float>(kExpm1); }
TEST(VectorMath, Log1pFloat64) { check_function<double>(kLog1p); }
TEST(VectorMath, Log1pFloat32) { check_function<float>(kLog1p); }
TEST(VectorMath, TanFloat64) { check_function<double>(kTan); }
TEST(VectorMath, TanFloat32) { check_function<float>(kTan); }

// Ordinary inputs: the vector code alone, which must raise no flag.
template <class T>
void check_no_flags(const Case& c, T lo, T hi) {
  at_each_width<T>(c, [&](const KernelFunction<T>& fn, const char* width) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<T> dist(lo, hi);
    std::vector<T> block(fn.lanes());
    for (int b = 0; b < 10000; ++b) {
      for (T& v : block) v = dist(rng);
      std::feclearexcept(FE_ALL_EXCEPT);
      fn.apply(block.data(), block.size());
      ASSERT_EQ(std::fetestexcept(kFlags), 0) << c.name << " at " << width << ", vector from " << block[0];
    }
  });
}

TEST(VectorMath, OrdinaryInputsRaiseNoFlags) {
  for (const Case* c : {&kSin, &kCos, &kTan}) {
    check_no_flags<double>(*c, -1e5, 1e5);
    check_no_flags<float>(*c, -1e5f, 1e5f);
  }
  check_no_flags<double>(kExp, -700, 700);
  check_no_flags<float>(kExp, -85, 85);
  check_no_flags<double>(kExp2, -1000, 1000);
  check_no_flags<float>(kExp2, -120, 120);
  check_no_flags<double>(kExpm1, -1000, 700);
  check_no_flags<float>(kExpm1, -1000, 85);
  check_no_flags<double>(kLog1p, -0.999, 1e300);
  check_no_flags<float>(kLog1p, -0.999f, 1e37f);
  for (const Case* c : {&kLog, &kLog2, &kLog10}) {
    check_no_flags<double>(*c, 1e-300, 1e300);
    check_no_flags<float>(*c, 1e-37f, 1e37f);
  }
}

// Each special value in each lane of an otherwise ordinary vector: that
// lane is libm's result, and the vector raises libm's flags.
template <class T>
void check_special_lanes(const Case& c) {
  using L = std::numeric_limits<T>;
  // Each with both signs: zeros, non-finite values, the ends of the ranges,
  // and values past the vector code's domains.
  const T magnitudes[] = {T(0),     L::infinity(), L::quiet_NaN(),  L::signaling_NaN(),
                          L::max(), L::min(),      L::denorm_min(), T(1),
                          T(1e30),  T(745.5),      T(720),          T(710),
                          T(100),   T(89),         T(3e6),          T(1025),
                          T(1030),  T(1075.5),     T(130),          T(140)};
  std::vector<T> specials;
  for (const T m : magnitudes) {
    specials.push_back(m);
    specials.push_back(-m);
  }
  at_each_width<T>(c, [&](const KernelFunction<T>& fn, const char* width) {
    const int n = fn.lanes();
    volatile T sink;
    for (const T s : specials) {
      for (int lane = 0; lane < n; ++lane) {
        std::vector<T> block(n);
        for (int i = 0; i < n; ++i) block[i] = T(0.25) + T(0.5) * static_cast<T>(i);
        block[lane] = s;
        const std::vector<T> x = block;
        std::feclearexcept(FE_ALL_EXCEPT);
        fn.apply(block.data(), n);
        const int got_flags = std::fetestexcept(kFlags);
        std::feclearexcept(FE_ALL_EXCEPT);
        for (int i = 0; i < n; ++i) sink = libm(c, x[i]);
        const int want_flags = std::fetestexcept(kFlags);
        EXPECT_EQ(got_flags, want_flags) << c.name << "(" << s << ") in lane " << lane << " at " << width;
        const T want = libm(c, s);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(block[lane])) << c.name << "(" << s << ") at " << width;
        } else {
          EXPECT_EQ(std::signbit(block[lane]), std::signbit(want)) << c.name << "(" << s << ") at " << width;
          EXPECT_LE(ulp_distance(block[lane], want), 1u)
              << c.name << "(" << s << ") = " << block[lane] << " at " << width;
        }
      }
    }
    (void)sink;
  });
}

TEST(VectorMath, SpecialLanesMatchLibm) {
  for (const Case* c : kCases) {
    check_special_lanes<double>(*c);
    check_special_lanes<float>(*c);
  }
}

// Not asserted: how much faster the kernels are than libm. A measurement,
// not a test, so left out of the suite's runs (run it with
// --gtest_also_run_disabled_tests --gtest_filter='*Throughput*').
template <class T>
void time_function(const Case& c, T lo, T hi) {
  constexpr std::size_t kBuffer = 4096;
  constexpr std::size_t kElements = 10000000;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<T> dist(lo, hi);
  std::vector<T> src(kBuffer);
  for (T& v : src) v = dist(rng);
  static T dst[kBuffer];
  using Clock = std::chrono::steady_clock;
  volatile T sink = 0;
  // ns per element, the better of two runs.
  const auto time = [&sink](auto&& pass) {
    double best = 1e30;
    for (int run = 0; run < 2; ++run) {
      const Clock::time_point start = Clock::now();
      for (std::size_t done = 0; done < kElements; done += kBuffer) {
        pass();
        sink = dst[done % kBuffer];
      }
      best =
          std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kElements);
    }
    return best;
  };
  const double libm_ns = time([&] {
    for (std::size_t i = 0; i < kBuffer; ++i) dst[i] = libm(c, src[i]);
  });
  at_each_width<T>(c, [&](const KernelFunction<T>& fn, const char* width) {
    const double kernel_ns = time([&] {
      std::memcpy(dst, src.data(), sizeof dst);
      fn.apply(dst, kBuffer);
    });
    std::printf("[ VectorMath ] %s %s on [%g, %g], %s kernel: %.2f ns/element, libm %.2f ns/element (%.1fx)\n",
                c.name, width_name(std::is_same_v<T, double>), static_cast<double>(lo), static_cast<double>(hi),
                width, kernel_ns, libm_ns, libm_ns / kernel_ns);
  });
  (void)sink;
}

TEST(VectorMath, DISABLED_Throughput) {
  for (const Case* c : {&kSin, &kCos, &kTan}) time_function<double>(*c, -10, 10);
  for (const Case* c : {&kExp, &kExp2, &kExpm1}) time_function<double>(*c, -50, 50);
  for (const Case* c : {&kLog, &kLog2, &kLog10, &kLog1p}) time_function<double>(*c, 1e-3, 1e3);
  for (const Case* c : {&kSin, &kCos, &kTan}) time_function<float>(*c, -10, 10);
  for (const Case* c : {&kExp, &kExp2, &kExpm1}) time_function<float>(*c, -50, 50);
  for (const Case* c : {&kLog, &kLog2, &kLog10, &kLog1p}) time_function<float>(*c, 1e-3f, 1e3f);
}

}  // namespace
}  // namespace npy::jit
