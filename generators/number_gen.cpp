#include "generators/number_gen.h"

#include <cmath>
#include <limits>

namespace convcheck {

using nlohmann::json;

namespace {

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr double kTwo63 = 9223372036854775808.0;

// Shrinks `value` toward `target` by halving the distance, in unsigned arithmetic (no overflow).
rc::Seq<std::int64_t> towards(std::int64_t value, std::int64_t target) {
  const bool down = target < value;
  const std::uint64_t diff =
      down ? static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(target)
           : static_cast<std::uint64_t>(target) - static_cast<std::uint64_t>(value);
  return rc::seq::map(
      rc::seq::takeWhile(rc::seq::iterate(diff, [](std::uint64_t d) { return d / 2; }),
                         [](std::uint64_t d) { return d != 0; }),
      [value, down](std::uint64_t d) {
        return static_cast<std::int64_t>(down ? static_cast<std::uint64_t>(value) - d
                                              : static_cast<std::uint64_t>(value) + d);
      });
}

std::int64_t wrapInto(std::int64_t v, std::int64_t lo, std::int64_t hi) {
  if (v >= lo && v <= hi) return v;
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  const std::uint64_t off = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(lo);
  if (span == std::numeric_limits<std::uint64_t>::max()) return v;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + off % (span + 1));
}

std::int64_t clampTo(std::int64_t v, std::int64_t lo, std::int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

// Picks a raw int64 across the interesting regions of [lo, hi].
std::int64_t pickInteger(rc::Random& r, std::int64_t lo, std::int64_t hi) {
  const auto category = r.next() % 100;
  if (category < 20) return clampTo(static_cast<std::int64_t>(r.next() % 33) - 16, lo, hi);
  if (category < 35) {
    switch (r.next() % 4) {
      case 0:
        return lo;
      case 1:
        return hi;
      case 2:
        return lo < hi ? lo + 1 : lo;
      default:
        return lo < hi ? hi - 1 : hi;
    }
  }
  if (category < 42) return clampTo(r.next() % 2 ? kInt64Max : kInt64Min, lo, hi);
  if (category < 52) {
    const std::int64_t beyond =
        (std::int64_t{1} << 53) + static_cast<std::int64_t>(r.next() % 1024) + 1;
    return wrapInto(r.next() % 2 ? beyond : -beyond, lo, hi);
  }
  const unsigned bits = static_cast<unsigned>(r.next() % 64);
  const std::uint64_t magnitude = bits == 0 ? 0 : r.next() >> (64 - bits);
  const std::int64_t v = r.next() % 2 ? static_cast<std::int64_t>(magnitude)
                                      : -static_cast<std::int64_t>(magnitude >> 1);
  return wrapInto(v, lo, hi);
}

}  // namespace

json storedNumber(double d) {
  if (std::isfinite(d) && std::trunc(d) == d && d >= -kTwo63 && d < kTwo63)
    return static_cast<std::int64_t>(d);
  return d;
}

std::optional<std::pair<std::int64_t, std::int64_t>> integerRange(const NumberBounds& b,
                                                                  IntegerWidth width) {
  double lo = width == IntegerWidth::Int32 ? -2147483648.0 : -kTwo63;
  double hi = width == IntegerWidth::Int32 ? 2147483647.0 : kTwo63;  // hi exclusive for int64
  bool hiOpen = width == IntegerWidth::Int64;
  if (b.minimum) {
    double m = std::ceil(*b.minimum);
    if (b.exclusiveMinimum && m == *b.minimum) m += 1;
    lo = std::max(lo, m);
  }
  if (b.maximum) {
    double m = std::floor(*b.maximum);
    if (b.exclusiveMaximum && m == *b.maximum) m -= 1;
    if (m < hi || (hiOpen && m <= hi)) {
      hi = m;
      hiOpen = false;
    }
  }
  if (lo >= kTwo63) return std::nullopt;
  const std::int64_t ilo = lo <= -kTwo63 ? kInt64Min : static_cast<std::int64_t>(lo);
  std::int64_t ihi;
  if (hi >= kTwo63)
    ihi = kInt64Max;
  else if (hi < -kTwo63)
    return std::nullopt;
  else
    ihi = static_cast<std::int64_t>(hi);
  if (hiOpen && hi < kTwo63) ihi -= 1;
  if (ilo > ihi) return std::nullopt;
  return std::make_pair(ilo, ihi);
}

rc::Gen<json> integerValues(const NumberBounds& bounds, IntegerWidth width) {
  auto range = integerRange(bounds, width);
  if (!range) {
    return rc::Gen<json>([](const rc::Random&, int) -> rc::Shrinkable<json> {
      throw rc::GenerationFailure("integer range of the schema is empty");
    });
  }
  auto [lo, hi] = *range;
  // Integral multipleOf: generate the factor k and return k * m.
  std::int64_t step = 1;
  if (bounds.multipleOf && *bounds.multipleOf >= 1 &&
      std::trunc(*bounds.multipleOf) == *bounds.multipleOf && *bounds.multipleOf < 4.0e18)
    step = static_cast<std::int64_t>(*bounds.multipleOf);
  std::int64_t klo = lo / step, khi = hi / step;
  if (klo * step < lo) ++klo;
  if (khi * step > hi) --khi;
  if (klo > khi) {
    return rc::Gen<json>([](const rc::Random&, int) -> rc::Shrinkable<json> {
      throw rc::GenerationFailure("no multiple of multipleOf within the schema's integer range");
    });
  }
  const std::int64_t target = clampTo(0, klo, khi);
  return rc::Gen<json>([klo, khi, step, target](const rc::Random& random, int) {
    rc::Random r = random;
    const std::int64_t k = pickInteger(r, klo, khi);
    auto s =
        rc::shrinkable::shrinkRecur(k, [target](std::int64_t v) { return towards(v, target); });
    return rc::shrinkable::map(std::move(s), [step](std::int64_t v) { return json(v * step); });
  });
}

rc::Gen<json> numberValues(const NumberBounds& bounds, bool float32) {
  const double limit = float32 ? static_cast<double>(std::numeric_limits<float>::max())
                               : std::numeric_limits<double>::max();
  double lo = -limit, hi = limit;
  if (bounds.minimum) {
    lo = std::max(lo, *bounds.minimum);
    if (bounds.exclusiveMinimum) lo = std::nextafter(lo, hi);
  }
  if (bounds.maximum) {
    hi = std::min(hi, *bounds.maximum);
    if (bounds.exclusiveMaximum) hi = std::nextafter(hi, lo);
  }
  const NumberBounds b = bounds;
  auto inRange = [lo, hi, float32](double d) {
    if (float32) d = static_cast<double>(static_cast<float>(d));
    return std::isfinite(d) && d >= lo && d <= hi;
  };
  auto narrow = [float32](double d) {
    return float32 ? static_cast<double>(static_cast<float>(d)) : d;
  };
  return rc::Gen<json>([lo, hi, b, inRange, narrow, float32](const rc::Random& random, int) {
    rc::Random r = random;
    double d = 0;
    for (int attempt = 0; attempt < 16; ++attempt) {
      const auto category = r.next() % 100;
      const double unit = static_cast<double>(r.next() >> 11) / 9007199254740992.0;  // [0, 1)
      if (category < 12) {
        d = 0;
      } else if (category < 35) {
        d = (static_cast<double>(r.next() % 81) - 40) / 4;  // ±10 in quarters
      } else if (category < 50) {
        d = (unit * 2 - 1) * std::pow(10.0, static_cast<double>(r.next() % 16));
      } else if (category < 58) {
        d = (r.next() % 2 ? 1 : -1) * (unit + 1) *
            std::pow(10.0, static_cast<double>(r.next() % 300));
      } else if (category < 63) {
        d = (r.next() % 2 ? 1 : -1) * (unit + 1) *
            std::pow(10.0, -static_cast<double>(r.next() % 300));
      } else if (category < 73) {
        // beyond 2^53: stored as an exact int64 literal, which a float64 cannot hold
        const std::int64_t beyond =
            (std::int64_t{1} << 53) + 1 + 2 * static_cast<std::int64_t>(r.next() % 512);
        const std::int64_t v = r.next() % 2 ? beyond : -beyond;
        if (!float32 && static_cast<double>(v) >= lo && static_cast<double>(v) <= hi &&
            !b.multipleOf)
          return rc::shrinkable::just(json(v));
        d = static_cast<double>(v);
      } else if (category < 83) {
        d = r.next() % 2 ? lo : hi;
      } else {
        const double l = std::max(lo, -1e12), h = std::min(hi, 1e12);
        d = l <= h ? l + unit * (h - l) : lo;
      }
      if (b.multipleOf && *b.multipleOf > 0) d = std::round(d / *b.multipleOf) * *b.multipleOf;
      d = narrow(d);
      if (inRange(d)) break;
      d = narrow(lo > 0 ? lo : hi < 0 ? hi : 0);
    }
    const double target = narrow(lo > 0 ? lo : hi < 0 ? hi : 0);
    auto s = rc::shrinkable::shrinkRecur(d, [target, inRange, narrow, b](double v) {
      std::vector<double> c;
      for (double x : {target, std::trunc(v), narrow(v / 2)})
        if (x != v && std::fabs(x - target) < std::fabs(v - target) && inRange(x) &&
            (!b.multipleOf || std::fmod(x, *b.multipleOf) == 0))
          c.push_back(x);
      return rc::seq::fromContainer(std::move(c));
    });
    return rc::shrinkable::map(std::move(s), [](double v) { return storedNumber(v); });
  });
}

}  // namespace convcheck
