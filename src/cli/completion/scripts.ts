/**
 * The scripts `mcpvm completion <shell>` prints. Each one asks `mcpvm __complete -- <words…>` for
 * candidates (the words after the program name, the last one being the word under the cursor)
 * and falls back to file names when it answers nothing. The program is called the way it was
 * typed (`${COMP_WORDS[0]}`, `$words[1]`, the first token), so a checkout's ./bin/mcpvm.js
 * completes itself.
 */

const BASH = `# mcpvm completion for bash. Load it with:  source <(mcpvm completion bash)
# or save it:  mcpvm completion bash > ~/.local/share/bash-completion/completions/mcpvm
_mcpvm_completion() {
  local -a words=()
  local i word
  # COMP_WORDS also breaks at "=" and ":"; glue those pieces back so mcpvm sees --engine=quick.
  for ((i = 1; i <= COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if ((\${#words[@]} > 0)) && [[ "$word" == "=" || "$word" == ":" || "\${COMP_WORDS[i-1]}" == "=" || "\${COMP_WORDS[i-1]}" == ":" ]]; then
      words[\${#words[@]}-1]+="$word"
    else
      words+=("$word")
    fi
  done
  ((\${#words[@]} == 0)) && words=("")
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local last="\${words[\${#words[@]}-1]}"
  # bash replaces only the piece after the last break character: strip what stands before it.
  local strip="\${last%"$cur"}"
  local program="\${COMP_WORDS[0]}"
  [[ "$program" == "~/"* ]] && program="$HOME/\${program#"~/"}"
  local IFS=$'\\n'
  local -a found=($("$program" __complete -- "\${words[@]}" 2>/dev/null))
  COMPREPLY=()
  local candidate
  for candidate in "\${found[@]}"; do
    COMPREPLY+=("\${candidate#"$strip"}")
  done
  # key= arguments go on without a space.
  if ((\${#COMPREPLY[@]} == 1)) && [[ "\${COMPREPLY[0]}" == *= ]]; then
    compopt -o nospace 2>/dev/null
  fi
}
complete -o default -o bashdefault -F _mcpvm_completion mcpvm
`;

const ZSH = `#compdef mcpvm
# mcpvm completion for zsh. Load it with:  source <(mcpvm completion zsh)
# or save it as _mcpvm in a folder of your $fpath.
_mcpvm() {
  local -a found
  found=("\${(@f)$("\${words[1]}" __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  found=("\${(@)found:#}")
  if (( \${#found} == 0 )); then
    _files
    return
  fi
  local -a spaced unspaced
  spaced=("\${(@)found:#*=}")
  unspaced=("\${(@M)found:#*=}")
  (( \${#spaced} )) && compadd -Q -- "\${spaced[@]}"
  (( \${#unspaced} )) && compadd -Q -S '' -- "\${unspaced[@]}"
}
# Autoloaded from $fpath the file is the function body: complete now. Sourced: register.
if [[ "\${funcstack[1]}" == "_mcpvm" ]]; then
  _mcpvm "$@"
elif (( \${+functions[compdef]} )); then
  compdef _mcpvm mcpvm
fi
`;

const FISH = `# mcpvm completion for fish. Load it with:  mcpvm completion fish | source
# or save it:  mcpvm completion fish > ~/.config/fish/completions/mcpvm.fish
function __mcpvm_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    # $tokens[2..-1] of a one-token list would be the program again: take the words after it explicitly.
    set -l words
    if test (count $tokens) -gt 1
        set words $tokens[2..-1]
    end
    set -l found ($tokens[1] __complete -- $words $current 2>/dev/null)
    if test (count $found) -eq 0
        __fish_complete_path $current
    else
        printf '%s\\n' $found
    end
end
complete -c mcpvm -f -a '(__mcpvm_complete)'
`;

export const COMPLETION_SCRIPTS: Readonly<Record<string, string>> = { bash: BASH, zsh: ZSH, fish: FISH };
