"""`scripts/check-apple --typecheck`: compiles every Apple-only line of Parley on Linux (issue 32; docs/ios.md,
"What the Linux type-check covers").

No Apple SDK can exist here. What stands in for it is `AppleSDK/`, a package of interface modules named like Apple's
frameworks (SwiftUI, UIKit, AVFAudio, Speech, …) that declare the API Parley uses, each declaration transcribed from
Apple's documentation for the iOS 18 SDK. With those modules on the import path, `canImport(SwiftUI)` and the like
are true, and the Swift compiler of this machine type-checks Parley's Apple-only files for real: Swift 6 language
mode, strict concurrency, the package's upcoming features, warnings as errors, against Parley's own modules as they
are built here.

How a run goes:

1. `swift build` of AppleSDK (its own `.build`; nothing of it is linked into Parley).
2. For each Parley target an iOS app can link (`IOS_TARGETS`, in dependency order) the compiler command SwiftPM
   used for the Linux build is read from `.build/debug.yaml` and run again, emitting the module into
   `.build/apple-typecheck/Modules` instead, with AppleSDK's modules and the modules emitted before it first on the
   import path. The sources are copies in which `#if`/`#elseif` conditions read `os(iOS)`, `os(tvOS)`,
   `os(visionOS)` and `os(watchOS)` as true, so code guarded for iOS is compiled too (the other conditions keep
   their Linux values; prefer `canImport` guards, which mean the same on Apple platforms and need no rewriting).
3. `Examples/ParleyChatApp/Sources` is compiled against those modules.
4. The ```swift blocks of `docs/ios.md` and of the DocC articles of ParleyUI and ParleyChatUI are compiled, one module per
   document. Imports are gathered at the top. A block whose top level holds only declarations (types, functions,
   extensions, `@main`) is compiled as it is; any other block is a run of statements, compiled as the body of an
   `async throws` function on the main actor; a statement block without an `import` line of its own continues the
   previous statement block (same scope), so that a document can show a sample in steps. What a block needs but
   does not show (a `serverURL`, a view controller) is given in an HTML comment right before it, not shown by
   renderers:

       <!-- typecheck-context
       let serverURL = URL(string: "https://chat.example.com")!
       -->

   and is compiled at the top level of the block's file.

Exit 0 when everything compiled, 1 with the compiler's errors otherwise. A Parley target that fails stops the
targets that depend on it (they are reported as not checked).

`--self-test` proves the run: for each file in `scripts/check-apple-fixtures/typecheck/` (copies of Apple-only
files as they were on main before issue 32), that file is put in place of its namesake, its target and the targets
it depends on are compiled, and each error listed for it in `expected-typecheck.json` must be reported.
"""

import json
import os
import re
import shutil
import subprocess
import sys

# The Parley targets an iOS app links that hold Apple-only code (`#if canImport(<an Apple framework>)` or
# `os(iOS)`), dependencies first, and ParleyConversation, which holds none but which ParleyClient and ParleyUI are
# compiled against here. ParleyCore and ParleyGenesys, which an app links too, hold none: their modules are used as
# built.
IOS_TARGETS = [
    "ParleyConversation", "ParleySpeech", "ParleyClient", "ParleyVoiceFlow", "ParleyUI", "ParleyChatUI",
    "ParleyWebBridge",
]
# Documents whose ```swift blocks are compiled.
# The documents an iOS developer reads for the Apple-only API: docs/ios.md and the articles of the two UI products.
# (The other products' articles show Linux-built API in fragments; compiling them is left for later.)
DOC_GLOBS = ["docs/ios.md"] + [f"Sources/{target}/{target}.docc" for target in ["ParleyUI", "ParleyChatUI"]]
EXAMPLE_SOURCES = "Examples/ParleyChatApp/Sources"

# Options of SwiftPM's command that produce build products this run does not want; the value after each is dropped
# with it when the second element is true.
DROPPED_OPTIONS = {
    "-emit-dependencies": False, "-incremental": False, "-c": False, "-enable-batch-mode": False,
    "-serialize-diagnostics": False, "-parseable-output": False, "-emit-objc-header": False, "-g": False,
    "-enable-testing": False, "-output-file-map": True, "-index-store-path": True, "-emit-objc-header-path": True,
    "-emit-module-path": True, "-module-cache-path": True,
}
IOS_CONDITION = re.compile(r"\bos\(\s*(iOS|tvOS|visionOS|watchOS)\s*\)")


class TargetCommand:
    def __init__(self, name, args, sources):
        self.name = name
        self.args = args
        self.sources = sources


def read_build_commands(root):
    """The swiftc command and sources SwiftPM used for each target of IOS_TARGETS in the debug build."""
    manifest_path = os.path.join(root, ".build", "debug.yaml")
    if not os.path.exists(manifest_path):
        raise SystemExit("scripts/check-apple --typecheck: no .build/debug.yaml; run `swift build` first")
    with open(manifest_path, encoding="utf-8") as handle:
        text = handle.read()
    commands = {}
    for target in IOS_TARGETS:
        key = f'"C.{target}-x86_64-unknown-linux-gnu-debug.module":'
        start = text.find(key)
        if start < 0:
            key = re.search(rf'"C\.{target}-[^"]*-debug\.module":', text)
            if not key:
                raise SystemExit(f"scripts/check-apple --typecheck: {target} is not in .build/debug.yaml")
            start = key.start()
        args_at = text.find("args:", start)
        line_end = text.find("\n", args_at)
        args = json.loads(text[args_at + len("args:"):line_end].strip())
        sources = []
        for arg in args:
            if arg.startswith("@") and arg.endswith("/sources"):
                with open(arg[1:], encoding="utf-8") as handle:
                    sources = [line.strip().strip('"') for line in handle if line.strip()]
        commands[target] = TargetCommand(target, args, sources)
    return commands


def typecheck_arguments(command, sources, modules, sdk_modules, module_cache):
    """SwiftPM's command for `command.name`, emitting its module into `modules` and reading Apple's interfaces and
    the modules emitted before it first."""
    args = [command.args[0]]
    skip = False
    for index, arg in enumerate(command.args[1:], start=1):
        if skip:
            skip = False
            continue
        if arg in DROPPED_OPTIONS:
            skip = DROPPED_OPTIONS[arg]
            continue
        if arg == "-Xcc":
            args += [arg, command.args[index + 1]]
            skip = True
            continue
        if arg.startswith("@") and arg.endswith("/sources"):
            continue
        if arg == "-emit-module":
            continue
        args.append(arg)
    return ([args[0], "-emit-module", "-emit-module-path", os.path.join(modules, command.name + ".swiftmodule"),
             "-I", modules, "-I", sdk_modules, "-module-cache-path", module_cache]
            + args[1:] + sources)


def ios_view(source, relative, work):
    """A copy of `source` at `work/relative` in which `os(iOS)` and its family read as true in `#if` conditions."""
    with open(source, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith("#if") or stripped.startswith("#elseif"):
            lines[index] = IOS_CONDITION.sub("true", line)
    copy = os.path.join(work, relative)
    os.makedirs(os.path.dirname(copy), exist_ok=True)
    with open(copy, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    return copy


def run(args, root, work):
    """Runs the compiler; its output with the copies' paths given back as the repository's."""
    result = subprocess.run(args, cwd=root, capture_output=True, text=True)
    output = (result.stdout + result.stderr).replace(work + "/", "")
    return result.returncode == 0, output


def build_sdk(root):
    sdk = os.path.join(root, "AppleSDK")
    result = subprocess.run(["swift", "build", "--package-path", sdk], capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout + result.stderr, file=sys.stderr)
        raise SystemExit("scripts/check-apple --typecheck: AppleSDK did not build")
    path = subprocess.run(["swift", "build", "--package-path", sdk, "--show-bin-path"], capture_output=True,
                          text=True, check=True).stdout.strip()
    return os.path.join(path, "Modules")


def compile_targets(root, commands, sdk_modules, work, overlay=None, only=None, check_dependencies=True,
                    warnings_as_errors=True):
    """Compiles IOS_TARGETS (or those `only` names) in order; returns (failed targets, skipped targets, output).
    Without `warnings_as_errors`, warnings stay warnings: the proof looks for the errors themselves, which a warning
    made an error would hide (the compiler stops after type-checking, before the SIL passes that report `sending`)."""
    modules = os.path.join(work, "Modules")
    os.makedirs(modules, exist_ok=True)
    cache = os.path.join(root, ".build", "apple-typecheck", "ModuleCache")
    failed, skipped, output = [], [], []
    for target in IOS_TARGETS:
        if only is not None and target not in only:
            continue
        command = commands[target]
        if check_dependencies and any(name in failed or name in skipped for name in transitive(root, target)):
            skipped.append(target)
            continue
        sources = []
        placed = set()
        for source in command.sources:
            relative = os.path.relpath(source, root)
            placed.add(relative)
            sources.append(ios_view((overlay or {}).get(relative, source), relative, work))
        # A fixture whose namesake no longer exists (a file split since) is compiled beside the sources.
        for relative, fixture in (overlay or {}).items():
            if relative not in placed and relative.split("/")[1] == target:
                sources.append(ios_view(fixture, relative, work))
        arguments = typecheck_arguments(command, sources, modules, sdk_modules, cache)
        if not warnings_as_errors:
            arguments = [arg for arg in arguments if arg != "-warnings-as-errors"]
        ok, text = run(arguments, root, work)
        if not ok:
            failed.append(target)
        if text.strip():
            output.append(f"--- {target}\n{text}")
    return failed, skipped, "\n".join(output)


_DEPENDENCIES = {}


def dependencies_of(root, target):
    """The Parley targets `target` depends on, from Package.swift's dump."""
    if not _DEPENDENCIES:
        dump = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, capture_output=True,
                                         text=True, check=True).stdout)
        for entry in dump["targets"]:
            names = []
            for dependency in entry.get("dependencies", []):
                for kind in ("byName", "target"):
                    if kind in dependency:
                        names.append(dependency[kind][0])
            _DEPENDENCIES[entry["name"]] = names
    return _DEPENDENCIES.get(target, [])


# --- Examples and doc samples ---------------------------------------------------------------------------------------

def compile_module(root, name, files, modules, sdk_modules, commands, work, library=True):
    """Compiles `files` as module `name` against the emitted modules and Apple's interfaces."""
    base = commands["ParleyChatUI"].args
    keep = []
    index = 1
    while index < len(base):
        arg = base[index]
        if arg in ("-Xcc", "-swift-version", "-enable-upcoming-feature", "-target", "-package-name"):
            if arg != "-package-name":
                keep += [arg, base[index + 1]]
            index += 2
            continue
        if arg.startswith("-D") or arg == "-warnings-as-errors":
            keep.append(arg)
        index += 1
    # The C modules (module maps) of every iOS target's dependencies, not only ParleyChatUI's: an app or a sample
    # imports ParleyClient beside ParleyChatUI, which does not depend on it, and ParleyClient needs swift-nio's.
    # An `-Xcc -I -Xcc PATH` pair is one unit.
    seen = set()
    for target in IOS_TARGETS:
        if target not in commands or target == "ParleyChatUI":
            continue
        other = commands[target].args
        values = [other[i + 1] for i, arg in enumerate(other[:-1]) if arg == "-Xcc"]
        units, i = [], 0
        while i < len(values):
            unit = tuple(values[i:i + 2]) if values[i] == "-I" else (values[i],)
            units.append(unit)
            i += len(unit)
        for unit in units:
            if unit[0].startswith(("-fmodule-map-file=", "-I")) and unit not in seen:
                seen.add(unit)
                for value in unit:
                    keep += ["-Xcc", value]
    build_modules = next(base[i + 1] for i, arg in enumerate(base) if arg == "-I")
    cache = os.path.join(root, ".build", "apple-typecheck", "ModuleCache")
    # -emit-module, not -typecheck: the diagnostics of region-based isolation (`sending`) come from SIL passes that
    # -typecheck does not run.
    args = ([base[0], "-emit-module", "-emit-module-path", os.path.join(work, name + ".swiftmodule"),
             "-module-name", name, "-I", modules, "-I", sdk_modules, "-I", build_modules,
             "-module-cache-path", cache] + (["-parse-as-library"] if library else []) + keep + files)
    return run(args, root, work)


DECLARATION = re.compile(r"^(@\w+|(public |private |fileprivate |internal |final |open |nonisolated )*"
                         r"(struct|class|enum|extension|actor|protocol|func|typealias)\b)")


def doc_blocks(path):
    """The ```swift blocks of `path`, each with the line it starts on and the context comment before it."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    blocks, index, context = [], 0, None
    while index < len(lines):
        line = lines[index]
        if line.strip() == "<!-- typecheck-context":
            end = index + 1
            while end < len(lines) and lines[end].strip() != "-->":
                end += 1
            context = lines[index + 1:end]
            index = end + 1
            continue
        if line.strip() == "```swift":
            indent = line[:len(line) - len(line.lstrip())]
            end = index + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            body = [text[len(indent):] if text.startswith(indent) else text for text in lines[index + 1:end]]
            blocks.append((index + 2, body, context or []))
            context = None
            index = end + 1
            continue
        if line.strip():
            context = None if not line.strip().startswith("<!--") else context
        index += 1
    return blocks


def sample_files(path, root, work):
    """Swift files for the blocks of one document, in its own folder under `work`."""
    folder = os.path.join(work, "samples", re.sub(r"[^\w]", "_", os.path.relpath(path, root)))
    os.makedirs(folder, exist_ok=True)
    files, group = [], None
    for number, (line, body, context) in enumerate(doc_blocks(path)):
        imports = [text for text in body if re.match(r"^(@\w+ )*import ", text)]
        rest = [text for text in body if text not in imports]
        top = [text for text in rest if text and not text[0].isspace() and not text.startswith("//")
               and not text.startswith("}") and not text.startswith(")") and not text.startswith("]")]
        declarations = all(DECLARATION.match(text) for text in top)
        origin = f"// {os.path.relpath(path, root)}:{line}"
        if declarations:
            files.append((origin, imports, context, rest, None))
            group = None
        elif group is not None and not imports:
            group[3].extend([origin] + rest)
            group[2].extend(context)
        else:
            group = (origin, imports, list(context), list(rest), f"sample{number}")
            files.append(group)
    written = []
    for number, (origin, imports, context, rest, function) in enumerate(files):
        text = [origin] + sorted(set(imports), key=imports.index) + ["import Foundation"] + context
        if function is None:
            text += rest
        else:
            text += ["@MainActor", f"func {function}() async throws {{"] + ["    " + t for t in rest] + ["}"]
        name = os.path.join(folder, f"Sample{number}.swift")
        with open(name, "w", encoding="utf-8") as handle:
            handle.write("\n".join(text) + "\n")
        written.append(name)
    return written


def documents(root):
    paths = []
    for entry in DOC_GLOBS:
        full = os.path.join(root, entry)
        if os.path.isdir(full):
            paths += sorted(os.path.join(full, name) for name in os.listdir(full) if name.endswith(".md"))
        elif os.path.exists(full):
            paths.append(full)
    return paths


# --- Entry points --------------------------------------------------------------------------------------------------

def typecheck(root, with_self_test=False, fixtures=None):
    """The check; with `with_self_test`, then the proof on `fixtures`, which reuses the modules the check emitted."""
    commands = read_build_commands(root)
    sdk_modules = build_sdk(root)
    work = os.path.join(root, ".build", "apple-typecheck", "run")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failed, skipped, output = compile_targets(root, commands, sdk_modules, work)
    problems = [f"target {name} did not compile" for name in failed]
    problems += [f"target {name} not checked: a target it depends on failed" for name in skipped]
    modules = os.path.join(work, "Modules")
    checked = [name for name in IOS_TARGETS if name not in failed and name not in skipped]
    if not failed and not skipped:
        example = os.path.join(root, EXAMPLE_SOURCES)
        if os.path.isdir(example):
            files = [ios_view(os.path.join(folder, name), os.path.relpath(os.path.join(folder, name), root), work)
                     for folder, _, names in os.walk(example) for name in sorted(names) if name.endswith(".swift")]
            ok, text = compile_module(root, "ParleyChatApp", files, modules, sdk_modules, commands, work)
            checked.append(EXAMPLE_SOURCES)
            if not ok:
                problems.append(f"{EXAMPLE_SOURCES} did not compile")
            if text.strip():
                output += f"\n--- {EXAMPLE_SOURCES}\n{text}"
        else:
            problems.append(f"{EXAMPLE_SOURCES} is missing")
        samples = 0
        for path in documents(root):
            files = sample_files(path, root, work)
            if not files:
                continue
            samples += len(doc_blocks(path))
            name = "Sample_" + re.sub(r"[^\w]", "_", os.path.relpath(path, root))
            ok, text = compile_module(root, name, files, modules, sdk_modules, commands, work)
            if not ok:
                problems.append(f"the samples of {os.path.relpath(path, root)} did not compile")
            if text.strip():
                output += f"\n--- {os.path.relpath(path, root)}\n{text}"
        checked.append(f"{samples} doc samples")
    if output.strip():
        print(output, file=sys.stderr if problems else sys.stdout)
    if problems:
        print("scripts/check-apple --typecheck: FAILED", file=sys.stderr)
        for problem in problems:
            print("  " + problem, file=sys.stderr)
        return 1
    print(f"scripts/check-apple --typecheck: ok ({', '.join(checked)})")
    if with_self_test:
        return self_test(root, fixtures, commands, sdk_modules, modules)
    return 0


def self_test(root, fixtures, commands, sdk_modules, modules):
    """Each fixture in place of its namesake must make its target fail with the errors expected-typecheck.json lists.
    Only the fixture's target is compiled, against the modules the clean check emitted for the targets before it."""
    with open(os.path.join(fixtures, "expected-typecheck.json"), encoding="utf-8") as handle:
        expected = json.load(handle)
    failures = []
    for relative, patterns in expected.items():
        fixture = os.path.join(fixtures, "typecheck", relative)
        target = relative.split("/")[1]
        work = os.path.join(root, ".build", "apple-typecheck", "self-test", target)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(os.path.join(work, "Modules"))
        # The clean modules of the other targets, so that the fixture's target is compiled against them.
        for name in os.listdir(modules):
            if not name.startswith(target + "."):
                os.symlink(os.path.join(modules, name), os.path.join(work, "Modules", name))
        failed, _, output = compile_targets(
            root, commands, sdk_modules, work, overlay={relative: fixture}, only=[target], check_dependencies=False,
            warnings_as_errors=False)
        if target not in failed:
            failures.append(f"{relative}: {target} compiled with the fixture in place")
        for pattern in patterns:
            if not re.search(pattern, output):
                failures.append(f"{relative}: no error matching {pattern!r} in:\n{output}")
    if failures:
        print("scripts/check-apple --typecheck --self-test: FAILED", file=sys.stderr)
        for failure in failures:
            print("  " + failure, file=sys.stderr)
        return 1
    count = sum(len(patterns) for patterns in expected.values())
    print(f"scripts/check-apple --typecheck --self-test: ok (each of the {count} errors of the {len(expected)} "
          "files as they were before issue 32 was reported)")
    return 0


def transitive(root, target):
    seen, stack = set(), [target]
    while stack:
        for name in dependencies_of(root, stack.pop()):
            if name not in seen:
                seen.add(name)
                stack.append(name)
    return seen
