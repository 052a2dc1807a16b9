#include "app/cli/cli.h"

#include <istream>
#include <ostream>

#include <CLI/CLI.hpp>

#include "app/cli/command_table.h"
#include "app/cli/version.h"

namespace convcheck {
namespace {

constexpr const char* kVersion = kConvcheckVersion;

// The subcommand the command line names: its first word that is not an option (the program's own
// options are flags).
const std::string* namedSubcommand(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    if (arg == "--") return nullptr;
    if (arg.empty() || arg[0] != '-') return &arg;
  }
  return nullptr;
}

std::string subcommandNames(const std::vector<Command>& table) {
  std::string names;
  for (const Command& command : table) names += (names.empty() ? "" : ", ") + command.name;
  return names;
}

// "--crd (-f) is required": every name of each required option of `sub` that was not given, as
// CLI11 names only the first.
std::string missingOptions(const CLI::App& sub) {
  std::string text;
  for (const CLI::Option* option : sub.get_options()) {
    if (!option->get_required() || option->count() > 0) continue;
    std::string names;
    for (const auto& name : option->get_lnames()) names += (names.empty() ? "--" : ", --") + name;
    std::string shorts;
    for (const auto& name : option->get_snames()) shorts += (shorts.empty() ? "-" : ", -") + name;
    if (!shorts.empty()) names += names.empty() ? shorts : " (" + shorts + ")";
    if (names.empty()) names = option->get_name();  // a positional argument
    text += (text.empty() ? "" : "; ") + names + " is required";
  }
  return text;
}

}  // namespace

int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err) {
  CLI::App app{"convcheck: conformance and fuzz testing of Kubernetes CRD conversion webhooks",
               "convcheck"};
  app.require_subcommand(1);
  app.set_version_flag("--version", kVersion);

  // Every subcommand exists before any declares its options, so that help and completion can
  // name them all.
  std::vector<Command> table = commandTable();
  std::vector<CLI::App*> subs;
  for (const Command& command : table)
    subs.push_back(app.add_subcommand(command.name, command.help));
  app.footer("Run `convcheck help SUBCOMMAND` for a subcommand's options.\n");  // not inherited
  std::vector<Execute> actions;
  for (std::size_t i = 0; i < table.size(); ++i) actions.push_back(table[i].declare(*subs[i]));

  // The subcommand named, if the table has it.
  const std::string* name = namedSubcommand(args);
  const CLI::App* named = nullptr;
  for (std::size_t i = 0; name && i < table.size(); ++i)
    if (table[i].name == *name) named = subs[i];
  if (name && !named) {
    err << "convcheck: unknown subcommand '" << *name << "'; the subcommands are "
        << subcommandNames(table) << "\nRun `convcheck help` for what each does.\n";
    return 2;
  }

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the subcommand's, when one was given
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    out << "convcheck " << kVersion << "\n";
    return 0;
  } catch (const CLI::RequiredError& e) {
    const std::string missing = named ? missingOptions(*named) : "";
    err << "convcheck: " << (missing.empty() ? std::string(e.what()) : missing) << "\n";
    err << (named ? "Run `convcheck help " + *name + "` for its options.\n"
                  : std::string("Run `convcheck help` for the subcommands.\n"));
    return 2;
  } catch (const CLI::ParseError& e) {
    err << "convcheck: " << e.what() << "\n";
    if (args.empty()) err << "Run `convcheck help` for the subcommands.\n";
    return e.get_exit_code() == 0 ? 0 : 2;
  }

  const std::string version = kVersion;
  const CommandContext context{in, out, err, args, version, app};
  for (std::size_t i = 0; i < table.size(); ++i)
    if (subs[i]->parsed()) return actions[i](context);
  return 2;
}

}  // namespace convcheck
