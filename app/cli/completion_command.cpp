// `convcheck completion bash|zsh`: a shell completion script made from the parsed command tree
// (every subcommand of the table and the options it declares), so that it cannot drift from
// them. Listed in command_table.cpp.
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"

namespace convcheck {
namespace {

// One option as a shell completes it.
struct CompletedOption {
  std::vector<std::string> names;  // "--crd", "-f"
  std::string help;
  bool takesValue = false;
  std::vector<std::string> choices;  // from a CLI::IsMember check; empty: a file name or free
};

struct CompletedCommand {
  std::string name, help;
  std::vector<CompletedOption> options;
  std::vector<std::string> positionalChoices;  // help's subcommand names, completion's shells
};

// The values in a type name such as "TEXT:{auto,always,never}".
std::vector<std::string> choicesOf(const std::string& typeName) {
  std::vector<std::string> out;
  auto open = typeName.find('{'), close = typeName.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::stringstream list(typeName.substr(open + 1, close - open - 1));
  for (std::string item; std::getline(list, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

CompletedCommand describe(const CLI::App& app) {
  CompletedCommand command{app.get_name(), app.get_description(), {}, {}};
  for (const CLI::Option* option : app.get_options()) {
    if (!option->nonpositional()) {
      auto choices = choicesOf(option->get_type_name());
      command.positionalChoices.insert(command.positionalChoices.end(), choices.begin(),
                                       choices.end());
      continue;
    }
    CompletedOption o;
    for (const auto& n : option->get_lnames()) o.names.push_back("--" + n);
    for (const auto& n : option->get_snames()) o.names.push_back("-" + n);
    o.help = option->get_description();
    o.takesValue = option->get_expected_max() != 0;  // flags expect 0
    if (o.takesValue) o.choices = choicesOf(option->get_type_name());
    command.options.push_back(std::move(o));
  }
  return command;
}

std::string joined(const std::vector<std::string>& words, const char* separator = " ") {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : separator) + w;
  return out;
}

std::string bashScript(const CompletedCommand& root, const std::vector<CompletedCommand>& subs) {
  std::vector<std::string> names, rootWords;
  for (const auto& s : subs) names.push_back(s.name);
  rootWords = names;
  for (const auto& o : root.options)
    rootWords.insert(rootWords.end(), o.names.begin(), o.names.end());
  std::string out = fmt::format(
      "# bash completion for convcheck: source it, or save it as\n"
      "# /etc/bash_completion.d/convcheck (made by `convcheck completion bash`).\n"
      "_convcheck() {{\n"
      "  local cur=\"${{COMP_WORDS[COMP_CWORD]}}\" prev=\"${{COMP_WORDS[COMP_CWORD-1]}}\"\n"
      "  local sub=\"\" i\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    case \"${{COMP_WORDS[i]}}\" in\n"
      "      {}) sub=\"${{COMP_WORDS[i]}}\"; break ;;\n"
      "    esac\n"
      "  done\n"
      "  case \"$sub\" in\n"
      "    \"\")\n"
      "      COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"))\n"
      "      return ;;\n",
      joined(names, "|"), joined(rootWords));
  for (const auto& s : subs) {
    std::vector<std::string> optionWords, fileOptions;
    out += fmt::format("    {})\n      case \"$prev\" in\n", s.name);
    for (const auto& o : s.options) {
      optionWords.insert(optionWords.end(), o.names.begin(), o.names.end());
      if (!o.takesValue) continue;
      if (o.choices.empty())
        fileOptions.insert(fileOptions.end(), o.names.begin(), o.names.end());
      else
        out += fmt::format("        {}) COMPREPLY=($(compgen -W \"{}\" -- \"$cur\")); return ;;\n",
                           joined(o.names, "|"), joined(o.choices));
    }
    if (!fileOptions.empty())
      out += fmt::format("        {}) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n",
                         joined(fileOptions, "|"));
    out += "      esac\n";
    out += fmt::format(
        "      if [[ \"$cur\" == -* ]]; then\n"
        "        COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"))\n",
        joined(optionWords));
    if (!s.positionalChoices.empty())
      out += fmt::format("      else\n        COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"))\n",
                         joined(s.positionalChoices));
    else
      out += "      else\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n";
    out += "      fi\n      return ;;\n";
  }
  out += "  esac\n}\ncomplete -o filenames -F _convcheck convcheck\n";
  return out;
}

// Text inside a single-quoted zsh word and an _arguments description ([...]).
std::string zshQuoted(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else if (c == '[' || c == ']' || c == ':' || c == '\\')
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

std::string zshScript(const std::vector<CompletedCommand>& subs) {
  std::string out =
      "#compdef convcheck\n"
      "# zsh completion for convcheck: save it as _convcheck in a directory of $fpath, or\n"
      "# source it (made by `convcheck completion zsh`).\n"
      "_convcheck() {\n"
      "  local -a commands\n"
      "  commands=(\n";
  for (const auto& s : subs) out += fmt::format("    '{}:{}'\n", s.name, zshQuoted(s.help));
  out +=
      "  )\n"
      "  if (( CURRENT == 2 )); then\n"
      "    _describe 'convcheck command' commands\n"
      "    return\n"
      "  fi\n"
      "  local sub=${words[2]}\n"
      "  shift words\n"
      "  (( CURRENT-- ))\n"
      "  case $sub in\n";
  for (const auto& s : subs) {
    out += fmt::format("    {})\n      _arguments -s", s.name);
    for (const auto& o : s.options) {
      std::string action = !o.takesValue       ? ""
                           : o.choices.empty() ? ":value:_files"
                                               : ":value:(" + joined(o.choices) + ")";
      for (const auto& n : o.names)
        out += fmt::format(" \\\n        '{}[{}]{}'", n, zshQuoted(o.help), action);
    }
    if (!s.positionalChoices.empty())
      out += fmt::format(" \\\n        '1:argument:({})'", joined(s.positionalChoices));
    else
      out += " \\\n        '*:file:_files'";
    out += "\n      ;;\n";
  }
  out +=
      "  esac\n"
      "}\n"
      "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
      "  _convcheck \"$@\"\n"
      "else\n"
      "  compdef _convcheck convcheck\n"
      "fi\n";
  return out;
}

Execute declareCompletionOptions(CLI::App& sub) {
  auto shell = std::make_shared<std::string>();
  sub.add_option("SHELL", *shell, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
  return [shell](const CommandContext& c) {
    std::vector<CompletedCommand> subs;
    for (const CLI::App* command : c.root.get_subcommands({})) subs.push_back(describe(*command));
    c.out << (*shell == "bash" ? bashScript(describe(c.root), subs) : zshScript(subs));
    return 0;
  };
}

}  // namespace

Command completionCommand() {
  return {"completion", "Print a shell completion script: bash or zsh", declareCompletionOptions};
}

}  // namespace convcheck
