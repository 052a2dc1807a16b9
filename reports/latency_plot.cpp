#include "reports/latency_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "reports/html_text.h"

namespace convcheck {

namespace {

constexpr double kPlotWidth = 320, kPlotHeight = 190;
constexpr double kPlotLeft = 46, kPlotRight = 12, kPlotTop = 12, kPlotBottom = 40;

// Where a bucket goes on the x axis: by its smallest batch size ("2-8" at 2, ">128" after 128).
double bucketOrder(const std::string& label) {
  if (!label.empty() && label[0] == '>') return std::strtod(label.c_str() + 1, nullptr) + 0.5;
  return std::strtod(label.c_str(), nullptr);
}

// The smallest 1, 2 or 5 times a power of ten at or above `v` (an axis that ends on a round value).
double roundUp(double v) {
  if (v <= 0) return 1;
  const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
  for (double step : {1.0, 2.0, 5.0, 10.0})
    if (step * magnitude >= v) return step * magnitude;
  return 10 * magnitude;
}

std::string msText(double v) { return fmt::format("{:.3g} ms", v); }

struct Series {
  const char* name;
  const char* cssClass;
  double LatencyStats::*value;
};
constexpr Series kSeries[] = {{"p50", "p50", &LatencyStats::p50Ms},
                              {"p95", "p95", &LatencyStats::p95Ms},
                              {"p99", "p99", &LatencyStats::p99Ms}};

std::string plot(const std::string& pair, const std::vector<const LatencyStats*>& points,
                 const std::vector<std::string>& buckets, double yMax) {
  const double plotW = kPlotWidth - kPlotLeft - kPlotRight,
               plotH = kPlotHeight - kPlotTop - kPlotBottom;
  auto x = [&](const std::string& bucket) {
    const auto i = std::find(buckets.begin(), buckets.end(), bucket) - buckets.begin();
    return kPlotLeft + plotW * (static_cast<double>(i) + 0.5) / static_cast<double>(buckets.size());
  };
  auto y = [&](double v) { return kPlotTop + plotH * (1 - v / yMax); };
  std::string svg = fmt::format(
      "<svg class=\"latency\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"answer time by "
      "batch size, {}\">",
      kPlotWidth, kPlotHeight, htmlText(pair));
  for (double tick : {0.0, yMax / 2, yMax})
    svg += fmt::format(
        "<line class=\"grid\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>"
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>",
        kPlotLeft, y(tick), kPlotWidth - kPlotRight, y(tick), kPlotLeft - 4, y(tick) + 3.5,
        msText(tick));
  for (const auto& bucket : buckets)
    svg += fmt::format(
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>",
        x(bucket), kPlotHeight - kPlotBottom + 14, htmlText(bucket));
  svg += fmt::format(
      "<text class=\"axis\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">objects "
      "per request</text>",
      kPlotLeft + plotW / 2, kPlotHeight - 6);
  for (const Series& s : kSeries) {
    std::string line;
    for (const LatencyStats* p : points)
      line += fmt::format("{:.1f},{:.1f} ", x(p->batchSizes), y(p->*s.value));
    svg += fmt::format("<polyline class=\"{}\" points=\"{}\"/>", s.cssClass, line);
    for (const LatencyStats* p : points)
      svg += fmt::format(
          "<circle class=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\"><title>{} objects: {} {} "
          "({} answers, max {})</title></circle>",
          s.cssClass, x(p->batchSizes), y(p->*s.value), htmlText(p->batchSizes), s.name,
          msText(p->*s.value), p->samples, msText(p->maxMs));
  }
  return svg + "</svg>";
}

}  // namespace

std::string latencyPlots(const std::vector<LatencyStats>& latency) {
  if (latency.empty()) return "";
  std::vector<std::string> pairs, buckets;
  std::map<std::string, std::vector<const LatencyStats*>> byPair;
  double yMax = 0;
  for (const auto& l : latency) {
    const std::string pair = l.from.empty() ? "endpoint" : l.from + " → " + l.to;
    if (!byPair.count(pair)) pairs.push_back(pair);
    byPair[pair].push_back(&l);
    if (std::find(buckets.begin(), buckets.end(), l.batchSizes) == buckets.end())
      buckets.push_back(l.batchSizes);
    yMax = std::max(yMax, l.p99Ms);
  }
  auto byOrder = [](const std::string& a, const std::string& b) {
    return bucketOrder(a) < bucketOrder(b);
  };
  std::sort(buckets.begin(), buckets.end(), byOrder);
  yMax = roundUp(yMax);
  std::string out = "<div class=\"plots\">";
  for (const auto& pair : pairs) {
    auto& points = byPair[pair];
    std::sort(points.begin(), points.end(), [&](const LatencyStats* a, const LatencyStats* b) {
      return byOrder(a->batchSizes, b->batchSizes);
    });
    out += "<figure>" + plot(pair, points, buckets, yMax) + "<figcaption>" + htmlText(pair) +
           "</figcaption></figure>";
  }
  out +=
      "</div><p class=\"legend\"><span class=\"key p50\"></span>p50 <span class=\"key "
      "p95\"></span>p95 <span class=\"key p99\"></span>p99 answer time, per request size; "
      "one scale for every pair</p>";
  return out;
}

}  // namespace convcheck
