#include "engine/run/batch_maker.h"

#include "harness/plan/planned_batch.h"

namespace convcheck {

using nlohmann::json;

std::vector<json> BatchMaker::make(const PlannedCase& planned) {
  const Crd& crd = kind_.crd();
  std::vector<json> batch;
  std::vector<std::size_t> slots;
  std::size_t bytes = 0;
  for (std::size_t j = 0; j < planned.sourceVersions.size(); ++j) {
    const auto& version = planned.sourceVersions[j];
    json object = plannedObject(kind_.generators().at(version), planned, j);
    if (planned.listChunk && (bytes += object.dump().size()) > maxChunkBytes_ && j > 0) {
      break;
    }
    object["apiVersion"] = crd.apiVersion(version);
    object["kind"] = crd.kind;
    auto& meta = object["metadata"];
    if (j == 0 && planned.sameIdentityAs) {
      auto earlier = identities_.find(*planned.sameIdentityAs);
      if (earlier != identities_.end())
        for (auto item = earlier->second.begin(); item != earlier->second.end(); ++item)
          meta[item.key()] = item.value();
    }
    batch.push_back(std::move(object));
    slots.push_back(j);
  }
  // Identity must be unique inside one batch, as it is in a real LIST.
  batch = uniqueIdentities(std::move(batch), slots, planned.seed);
  json identity = json::object();
  for (const char* key : {"namespace", "name", "uid"})
    if (batch.front()["metadata"].contains(key)) identity[key] = batch.front()["metadata"][key];
  identities_[planned.index] = identity;
  return batch;
}

namespace {

std::size_t valuesIn(const json& value) {
  std::size_t n = 1;
  if (value.is_structured())
    for (const auto& child : value) n += valuesIn(child);
  return n;
}

}  // namespace

std::size_t jsonValues(const std::vector<json>& batch) {
  return jsonValues(SharedObjects::heldBy(nullptr, batch));
}

std::size_t jsonValues(const SharedObjects& batch) {
  std::size_t n = 0;
  for (const auto& object : batch) n += valuesIn(object);
  return n;
}

}  // namespace convcheck
