#include "engine/fuzz/process_webhook.h"

#include <algorithm>
#include <cstdlib>

#include "engine/fuzz/afl_coverage.h"

namespace convcheck {

std::variant<std::unique_ptr<ProcessWebhook>, std::string> ProcessWebhook::start(
    const Recipe& recipe) {
  std::unique_ptr<ProcessWebhook> webhook(new ProcessWebhook);
  AccessOptions access = recipe.access;
  if (recipe.coverage) {
    auto made = makeCoverageMap(std::getenv("AFL_MAP_SIZE"));
    if (auto* error = std::get_if<std::string>(&made)) return *error;
    webhook->map_ = std::move(std::get<std::unique_ptr<SharedCoverageMap>>(made));
    access.environment = webhook->map_->environment();
  }
  webhook->config_ = recipe.given;
  auto opened = WebhookAccess::open(webhook->config_, std::move(access), recipe.crds);
  if (auto* error = std::get_if<AccessError>(&opened)) return error->message;
  webhook->access_ = std::move(std::get<std::unique_ptr<WebhookAccess>>(opened));
  const auto crd = std::find_if(recipe.crds.begin(), recipe.crds.end(),
                                [&](const Crd& c) { return c.name == recipe.crdName; });
  if (crd == recipe.crds.end()) return "no CRD named " + recipe.crdName;
  auto kind = webhook->access_->forKind(*crd);
  if (auto* error = std::get_if<AccessError>(&kind)) return error->message;
  webhook->kind_.emplace(std::move(std::get<KindTarget>(kind)));
  if (std::string failure = webhook->access_->await(webhook->kind_->target()); !failure.empty())
    return failure;
  if (webhook->map_ && webhookAttached(*webhook->map_)) webhook->coverage_ = webhook->map_.get();
  return webhook;
}

ProcessWebhook::~ProcessWebhook() {
  if (!access_) return;
  RunReport unused;  // the reporting process says how the job's own webhook ended
  access_->finish(unused);
}

}  // namespace convcheck
