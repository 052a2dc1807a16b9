#include "tests/integration/stand_in_cluster.h"

#include <openssl/evp.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace convcheck::test {

namespace {

std::string standInFile(const std::string& name) {
  return std::string(CONVCHECK_SOURCE_DIR) + "/tests/harness/cluster/" + name;
}

std::string standInBase64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

ExampleWebhookOptions webhookOptionsFor(const StandInClusterOptions& options) {
  ExampleWebhookOptions hook;
  hook.faults = options.faults;
  hook.pki.extraDnsNames = options.webhookDnsNames;
  return hook;
}

}  // namespace

std::string missingClusterTools() {
  if (std::system("kubectl version --client >/dev/null 2>&1") != 0)
    return "kubectl is not on PATH (the cluster tests drive the real kubectl)";
  if (std::system("node --version >/dev/null 2>&1") != 0)
    return "node is not installed (the API server stand-in is Node.js; ci/install-deps.sh)";
  return "";
}

StandInCluster::StandInCluster(StandInClusterOptions options) : hook_(webhookOptionsFor(options)) {
  log_ = pki_.dir() / "requests.log";
  std::string crdFile = standInFile(options.crdFile);
  if (options.caBundle || !options.crdServiceName.empty()) {
    std::ifstream in(crdFile);
    nlohmann::json crd = nlohmann::json::parse(in);
    auto& clientConfig = crd["spec"]["conversion"]["webhook"]["clientConfig"];
    if (options.caBundle) clientConfig["caBundle"] = standInBase64(hook_.pki().caPem());
    if (!options.crdServiceName.empty()) clientConfig["service"]["name"] = options.crdServiceName;
    crdFile = (pki_.dir() / options.crdFile).string();
    std::ofstream(crdFile) << crd.dump();
  }
  std::vector<std::string> argv = {"/usr/bin/env",
                                   "node",
                                   standInFile("apiserver-stand-in.js"),
                                   "--cert",
                                   pki_.serverCertFile(),
                                   "--key",
                                   pki_.serverKeyFile(),
                                   "--crd",
                                   crdFile,
                                   "--objects",
                                   standInFile(options.objectsFile),
                                   "--token",
                                   "s3cret-token",
                                   "--log",
                                   log_.string(),
                                   "--service",
                                   "convcheck-test/" + options.service + ":443=" + hook_.baseUrl()};
  if (!options.webSocket) argv.insert(argv.end(), {"--websocket", "off"});
  if (options.dropPortForwardAfter > 0)
    argv.insert(argv.end(),
                {"--drop-port-forward-after", std::to_string(options.dropPortForwardAfter)});
  apiserver_ = std::make_unique<ChildProcess>(argv);
  auto port = apiserver_->waitForLine(std::regex("listening on https://127\\.0\\.0\\.1:([0-9]+)"),
                                      std::chrono::seconds(15));
  if (!port) throw std::runtime_error("stand-in did not start: " + apiserver_->stderrText());
  kubeconfig_ = (pki_.dir() / "kubeconfig").string();
  std::ofstream(kubeconfig_)
      << "apiVersion: v1\nkind: Config\nclusters:\n"
      << "- name: stand-in\n  cluster:\n    server: https://127.0.0.1:" << (*port)[1]
      << "\n    certificate-authority: " << pki_.caFile() << "\n"
      << "- name: nowhere\n  cluster:\n    server: https://127.0.0.1:1\n"
      << "users:\n- name: exec-user\n  user:\n    exec:\n"
      << "      apiVersion: client.authentication.k8s.io/v1\n      command: /bin/sh\n"
      << "      interactiveMode: Never\n      args:\n      - -c\n"
      << "      - printf '%s' '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
         "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"s3cret-token\"}}'\n"
      << "contexts:\n- name: stand-in\n  context: {cluster: stand-in, user: exec-user}\n"
      << "- name: nowhere\n  context: {cluster: nowhere, user: exec-user}\n"
      << "current-context: nowhere\n";
}

StandInCluster::~StandInCluster() = default;

std::vector<std::string> StandInCluster::clusterArgs() const {
  return {"--kubeconfig", kubeconfig_, "--context", "stand-in"};
}

std::vector<std::string> StandInCluster::requests() const {
  std::ifstream in(log_);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

RequestVerbs requestVerbs(const std::vector<std::string>& lines, const std::string& proxyPath) {
  RequestVerbs verbs;
  for (const auto& line : lines) {
    if (line.rfind("  ", 0) == 0) continue;  // what the stand-in did for the request before
    const std::string verb = line.substr(0, line.find(' '));
    const std::string path = line.substr(line.find(' ') + 1);
    if (verb == "POST" && path.rfind(proxyPath, 0) == 0)
      ++verbs.proxyPosts;
    else if (verb != "GET")
      verbs.otherWrites.push_back(line);
  }
  return verbs;
}

bool anyLine(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& l : lines)
    if (l.find(part) != std::string::npos) return true;
  return false;
}

std::vector<std::string> withArgs(std::vector<std::string> args,
                                  const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace convcheck::test
