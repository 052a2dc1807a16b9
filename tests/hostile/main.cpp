// hostile-webhook: a conversion webhook that misbehaves on purpose, one --mode at a time, for
// convcheck's robustness tests (tests/hostile). Listens on 127.0.0.1 only.
#include <iostream>

#include <CLI/CLI.hpp>

#include "tests/hostile/hostile_server.h"

int main(int argc, char** argv) {
  using namespace convcheck::hostile;
  CLI::App app{"A conversion webhook that misbehaves on purpose (one --mode at a time)"};
  std::string mode = "correct";
  ServerOptions options;
  std::string modes;
  for (const auto& info : modeCatalogue())
    modes += "\n  " + std::string(info.name) + ": " + std::string(info.behaviour);
  app.add_option("--mode", mode, "Behaviour, one of:" + modes)->default_val("correct");
  app.add_option("--cert", options.certFile, "Serving certificate (PEM); none: plain HTTP");
  app.add_option("--key", options.keyFile, "Private key (PEM)");
  app.add_option("--port", options.port, "Port on 127.0.0.1 (0: any free port)")->default_val(0);
  bool listModes = false;
  app.add_flag("--list-modes", listModes, "Print the mode names, one per line, and exit");
  CLI11_PARSE(app, argc, argv);
  if (listModes) {
    for (const auto& info : modeCatalogue()) std::cout << info.name << "\n";
    return 0;
  }
  auto parsed = modeFromName(mode);
  if (!parsed) {
    std::cerr << "hostile-webhook: unknown --mode " << mode << "\n";
    return 2;
  }
  if (options.certFile.empty() != options.keyFile.empty()) {
    std::cerr << "hostile-webhook: --cert and --key go together\n";
    return 2;
  }
  options.mode = *parsed;
  return runHostileServer(options, std::cout, std::cerr);
}
