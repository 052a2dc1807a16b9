// `convcheck certs`: writes a CA and a serving certificate for a webhook service (the names
// kube-apiserver verifies, plus localhost and 127.0.0.1) and prints the caBundle for the CRD.
// Listed in command_table.cpp.
#include <filesystem>
#include <memory>
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "harness/transport/serving_certs.h"

namespace convcheck {
namespace {

struct CertsFlags {
  std::string service = "webhook-service", ns = "default", out = "convcheck-certs";
  int days = 365;
};

// Prints the caBundle (base64 of the CA's PEM) on `out`, what was written on `err`. Exit 0, or 2
// when the files cannot be written.
int runCerts(const CertsFlags& f, std::ostream& out, std::ostream& err) {
  ServingCertsRequest request{serviceDnsNames(f.service, f.ns), {"127.0.0.1"}, f.days};
  auto made = makeServingCerts(request);
  if (auto* error = std::get_if<std::string>(&made)) {
    err << "convcheck: certs: " << *error << "\n";
    return 2;
  }
  const ServingCerts& certs = std::get<ServingCerts>(made);
  if (auto error = writeServingCerts(certs, f.out); !error.empty()) {
    err << "convcheck: certs: " << error << "\n";
    return 2;
  }
  std::string names;
  for (const auto& name : request.dnsNames) names += name + ", ";
  const std::filesystem::path dir(f.out);
  const auto file = [&](const char* name) { return (dir / name).string(); };
  err << fmt::format(
      "wrote {} and {} (the CA), {} and {} (the serving certificate for {}127.0.0.1, valid {} "
      "days)\nbelow: the caBundle for spec.conversion.webhook.clientConfig.caBundle (or pass "
      "--ca-file {})\n",
      file(kCaCertFile), file(kCaKeyFile), file(kServerCertFile), file(kServerKeyFile), names,
      f.days, file(kCaCertFile));
  out << caBundleOf(certs) << "\n";
  return 0;
}

Execute declareCertsOptions(CLI::App& sub) {
  auto f = std::make_shared<CertsFlags>();
  sub.add_option("--service", f->service, "Service name of the webhook")
      ->default_val("webhook-service");
  sub.add_option("--namespace", f->ns, "Namespace of the service")->default_val("default");
  sub.add_option("--out", f->out,
                 "Directory for ca.crt, ca.key, tls.crt and tls.key (created if needed)")
      ->default_val("convcheck-certs");
  sub.add_option("--days", f->days, "Validity of both certificates in days")
      ->default_val(365)
      ->check(CLI::Range(1, 36500));
  return [f](const CommandContext& c) { return runCerts(*f, c.out, c.err); };
}

}  // namespace

Command certsCommand() {
  return {"certs",
          "Write a CA and a serving certificate for a webhook service; print the CRD's caBundle",
          declareCertsOptions};
}

}  // namespace convcheck
