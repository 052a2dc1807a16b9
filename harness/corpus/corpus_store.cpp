#include "harness/corpus/corpus_store.h"
#include "kube/apiserver/group_version.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace convcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool readFile(const fs::path& p, std::string& out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return true;
}

std::vector<fs::path> filesUnder(const fs::path& dir, bool recursive) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  auto keep = [&](const fs::directory_entry& e) {
    std::error_code fec;
    if (!e.is_regular_file(fec)) return;
    const std::string ext = e.path().extension().string();
    if (ext == ".json" || ext == ".yaml" || ext == ".yml") out.push_back(e.path());
  };
  if (recursive) {
    for (fs::recursive_directory_iterator
             it(dir, fs::directory_options::skip_permission_denied, ec),
         end;
         it != end && !ec; it.increment(ec))
      keep(*it);
  } else {
    for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) keep(*it);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string groupOf(const std::string& apiVersion) {
  auto slash = apiVersion.rfind('/');
  return slash == std::string::npos ? "" : apiVersion.substr(0, slash);
}

}  // namespace

CorpusContents CorpusStore::load(const Crd& crd) const {
  CorpusContents out;
  const fs::path root(dir_);
  for (const auto& file : filesUnder(root / "regressions" / crd.name, false)) {
    const std::string rel = fs::relative(file, root).generic_string();
    if (file.extension() != ".json") continue;
    std::string text;
    if (!readFile(file, text)) {
      out.notes.push_back(fmt::format("corpus: cannot read {}", rel));
      continue;
    }
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) {
      out.notes.push_back(fmt::format("corpus: {} is not valid JSON; skipped", rel));
      continue;
    }
    auto parsed = regressionFromJson(j, "corpus " + rel);
    if (auto* error = std::get_if<std::string>(&parsed)) {
      out.notes.push_back(*error + "; skipped");
      continue;
    }
    auto& c = std::get<RegressionCase>(parsed);
    if (c.crd != crd.name) {
      out.notes.push_back(
          fmt::format("corpus {}: written for CRD {}, not {}; skipped", rel, c.crd, crd.name));
      continue;
    }
    out.regressions.push_back({rel, std::move(c)});
  }
  for (const auto& file : filesUnder(root / "samples", true)) {
    const std::string rel = fs::relative(file, root).generic_string();
    std::string text;
    if (!readFile(file, text)) {
      out.notes.push_back(fmt::format("corpus: cannot read {}", rel));
      continue;
    }
    ObjectDocuments docs = readObjects(text, rel);
    for (const auto& e : docs.errors) out.notes.push_back("corpus: " + e + "; skipped");
    for (auto& d : docs.objects) {
      // Samples are user files: any field may have any type.
      auto text = [&d](const char* key) {
        auto it = d.object.is_object() ? d.object.find(key) : d.object.end();
        return it != d.object.end() && it->is_string() ? it->get<std::string>() : std::string();
      };
      const std::string apiVersion = text("apiVersion");
      if (text("kind") != crd.kind || groupOf(apiVersion) != crd.group) continue;
      out.samples.push_back({d.where, versionOfApiVersion(apiVersion), std::move(d.object)});
    }
  }
  return out;
}

std::string CorpusStore::save(const RegressionCase& c, bool* created) const {
  const fs::path dir = fs::path(dir_) / "regressions" / c.crd;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fmt::format("error: cannot create {}: {}", dir.string(), ec.message());
  const std::string name = regressionFileName(c);
  const fs::path target = dir / name;
  const std::string rel = (fs::path("regressions") / c.crd / name).generic_string();
  if (created) *created = !fs::exists(target, ec);
  const fs::path tmp = dir / (name + ".tmp");
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << regressionToJson(c).dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    if (!f.flush()) return fmt::format("error: cannot write {}", tmp.string());
  }
  fs::rename(tmp, target, ec);
  if (ec) return fmt::format("error: cannot move {} into place: {}", target.string(), ec.message());
  return rel;
}

}  // namespace convcheck
