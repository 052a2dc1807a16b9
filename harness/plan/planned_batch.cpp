#include "harness/plan/planned_batch.h"

#include <random>
#include <set>
#include <string>

#include <fmt/format.h>

#include "harness/plan/seed_salts.h"
#include "harness/transport/review_codec.h"

namespace convcheck {

using nlohmann::json;

namespace {

// A minimal-shape case draws its first object with the minimal shape; a LIST chunk draws every
// object as a LIST returns stored objects; any other object has any shape.
ObjectMix mixOf(const PlannedCase& planned, std::size_t slot) {
  if (planned.listChunk) return ObjectMix::Listed;
  return slot == 0 && planned.shape == CaseShape::Minimal ? ObjectMix::Minimal : ObjectMix::Any;
}

}  // namespace

rc::Shrinkable<json> plannedDraw(const ObjectGenerator& generator, const PlannedCase& planned,
                                 std::size_t slot) {
  return generator.mix(mixOf(planned, slot))(rc::Random(planned.seed + slot), planned.genSize);
}

json plannedObject(const ObjectGenerator& generator, const PlannedCase& planned, std::size_t slot) {
  return generator.drawObject(rc::Random(planned.seed + slot), planned.genSize,
                              mixOf(planned, slot));
}

std::vector<json> uniqueIdentities(std::vector<json> batch, const std::vector<std::size_t>& slots,
                                   std::uint64_t seed) {
  std::set<std::string> names, uids;
  for (std::size_t j = 0; j < batch.size(); ++j) {
    if (!batch[j].is_object()) continue;
    auto meta = batch[j].find("metadata");
    if (meta == batch[j].end() || !meta->is_object()) continue;
    const std::size_t slot = j < slots.size() ? slots[j] : j;
    if (meta->contains("name") && (*meta)["name"].is_string()) {
      std::string name = (*meta)["name"].get<std::string>();
      if (!names.insert(name).second) {
        // The cut keeps the name within the API server's 253 characters; a name of 200 or more
        // that already ends in "-<slot>" cuts back to itself, hence the counter.
        const std::string base = name.substr(0, 200);
        name = fmt::format("{}-{}", base, slot);
        for (int n = 2; !names.insert(name).second; ++n)
          name = fmt::format("{}-{}-{}", base, slot, n);
      }
      (*meta)["name"] = name;
    }
    if (meta->contains("uid") && (*meta)["uid"].is_string()) {
      std::string uid = (*meta)["uid"].get<std::string>();
      if (!uids.insert(uid).second) {
        std::mt19937_64 rng(duplicateUidSeed(seed, slot));
        do uid = newRequestUid(rng);
        while (!uids.insert(uid).second);
        (*meta)["uid"] = uid;
      }
    }
  }
  return batch;
}

}  // namespace convcheck
