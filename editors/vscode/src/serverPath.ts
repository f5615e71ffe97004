// Where cake-lsp is found: the `cake.server.path` setting, else the
// workspace's build tree (build/bin/cake-lsp), else `cake-lsp` on PATH
// (cmake --install puts it in PREFIX/bin); and which settings tab shows that
// setting. Kept free of the `vscode` module so that it can be unit-tested
// with plain Node.
import * as fs from "fs";
import * as path from "path";

export const SERVER_NAME = process.platform === "win32" ? "cake-lsp.exe" : "cake-lsp";

function isExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks a bare command name up on PATH, like a shell would. */
export function whichOnPath(name: string, envPath: string | undefined = process.env.PATH): string | undefined {
  for (const dir of (envPath ?? "").split(path.delimiter)) {
    if (dir === "") {
      continue;
    }
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

export interface Resolution {
  /** The executable, or undefined when none was found. */
  command: string | undefined;
  /** How it was found, or the places that were searched: for messages and :CakeInfo-like output. */
  how: string;
}

/**
 * @param configured the `cake.server.path` setting (may be relative to the first workspace folder, may start with ~)
 * @param workspaceFolders the workspace folders' file-system paths
 */
export function resolveServer(configured: string, workspaceFolders: readonly string[], envPath: string | undefined = process.env.PATH): Resolution {
  if (configured.trim() !== "") {
    let p = configured.trim();
    if (p.startsWith("~/") && process.env.HOME) {
      p = path.join(process.env.HOME, p.slice(2));
    }
    if (!path.isAbsolute(p) && !p.includes(path.sep) && !p.includes("/")) {
      const found = whichOnPath(p, envPath);
      return found ? { command: found, how: `cake.server.path "${configured}" on PATH` } : { command: undefined, how: `cake.server.path "${configured}" is not on PATH` };
    }
    if (!path.isAbsolute(p) && workspaceFolders.length > 0) {
      p = path.join(workspaceFolders[0], p);
    }
    return isExecutable(p) ? { command: p, how: "cake.server.path" } : { command: undefined, how: `cake.server.path "${configured}" is not an executable file` };
  }
  const searched: string[] = [];
  for (const folder of workspaceFolders) {
    const candidate = path.join(folder, "build", "bin", SERVER_NAME);
    searched.push(candidate);
    if (isExecutable(candidate)) {
      return { command: candidate, how: "workspace build/bin" };
    }
  }
  const onPath = whichOnPath(SERVER_NAME, envPath);
  if (onPath) {
    return { command: onPath, how: "PATH" };
  }
  searched.push(`${SERVER_NAME} on PATH`);
  return { command: undefined, how: `searched ${searched.join(", ")}` };
}

/**
 * The command (and its argument) that opens the settings editor on `setting`,
 * a setting of scope `machine-overridable` like `cake.server.path`. In a
 * remote window (`vscode.env.remoteName` set: code-server, Remote-SSH, WSL,
 * dev containers) VS Code hides such settings on the User tab ("No Settings
 * Found"): they belong to the machine the extension runs on, the Remote tab.
 */
export function settingsEditorFor(setting: string, remoteName: string | undefined): [string, unknown] {
  return remoteName ? ["workbench.action.openRemoteSettings", { query: setting }] : ["workbench.action.openSettings", setting];
}
