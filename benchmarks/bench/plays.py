"""The plays the benchmark writes under .work (those it runs as they are live in benchmarks/playbooks), how it runs
a play, and the project its pattern plays use."""
import json
import subprocess
import time

from .base import PLAYBOOKS, WORK

LOOP = '      loop: "{{ range(bench_n | int) | list }}"\n'
PLAYBOOK_PYTHON = '"{{ ansible_playbook_python }}"'


def play(comment, name, tasks, interpreter=PLAYBOOK_PYTHON):
    """The text of a play on localhost over the local connection, as each play the benchmark writes is:
    ``comment`` (lines), the play's ``name``, its interpreter (None: Ansible's choice) and ``tasks`` (text)."""
    lines = ["---"] + ["# " + line for line in comment] + [
        "- name: " + name, "  hosts: localhost", "  connection: local", "  gather_facts: false"]
    if interpreter:
        lines += ["  vars:", "    ansible_python_interpreter: " + interpreter]
    return "\n".join(lines + ["  tasks:", ""]) + tasks


def awx_playbook():
    """The same play with awx.awx.host (written under .work: awx.awx is not installed for ansible-lint)."""
    text = (PLAYBOOKS / "ours.yml").read_text()
    text = text.replace("automation.service.host", "awx.awx.host").replace("SERVICE_*", "CONTROLLER_*")
    path = WORK / "awx.yml"
    path.write_text(text)
    return path


REQUEST_FLOOR_PLAY = play(
    ["The second floor: one GET from a module that does nothing else (benchmarks/library/one_request.py)."],
    "Benchmark floor with one request",
    "    - name: One request task\n"
    "      one_request:\n"
    '        path: "/api/v2/hosts/?name=bench-host-{{ item }}&inventory__name={{ bench_inventory }}&page_size=2"\n'
    + LOOP)


def request_floor_playbook():
    """Written under .work, like awx.awx's: its module is not in a collection for ansible-lint to find."""
    path = WORK / "one_request.yml"
    path.write_text(REQUEST_FLOOR_PLAY)
    return path


WORKER_FLOOR_PLAY = play(
    ["The third floor: a loop of ansible.builtin.debug, an action that runs in the worker and sends nothing:",
     "what Ansible itself costs per item on the controller path."],
    "Benchmark floor in the worker",
    "    - name: Debug task\n"
    "      ansible.builtin.debug:\n"
    '        msg: "bench-host-{{ item }}"\n'
    + LOOP, interpreter=None)


def worker_floor_playbook():
    path = WORK / "debug.yml"
    path.write_text(WORKER_FLOOR_PLAY)
    return path


def one_request_path(host, inventory):
    return "/api/v2/hosts/?name=%s&inventory__name=%s&page_size=2" % (host, inventory)


def task_args(config, i):
    """The arguments of the i-th separate task (the loop's i-th item), as plain values."""
    if config.module == "ansible.builtin.ping":
        return {}
    if config.module == "one_request":
        return {"path": one_request_path("bench-host-%d" % i, config.inventory)}
    if config.module == "ansible.builtin.debug":
        return {"msg": "bench-host-%d" % i}
    return {"name": "bench-host-%d" % i, "inventory": config.inventory, "description": "benchmark"}


def separate_playbook(config, n):
    """A play of n separate tasks, the loop's items written out: no loop and nothing to template
    (the interpreter too is written out), so that each task costs what any task costs Ansible."""
    lines = []
    for i in range(n):
        lines.append("    - name: %s" % json.dumps("Separate task %d" % i))
        args = task_args(config, i)
        if not args:
            lines.append("      %s: {}" % config.module)
            continue
        lines.append("      %s:" % config.module)
        lines += ["        %s: %s" % (name, json.dumps(value)) for name, value in args.items()]
    path = WORK / ("separate-%s.yml" % config.key)
    path.write_text(play(["Written by the benchmark (benchmarks/bench): %d separate tasks for %s." % (n, config.key)],
                         "Benchmark separate tasks", "".join(line + "\n" for line in lines), json.dumps(config.python)))
    return path


ASYNC_PLAY = play(
    ["Written by the benchmark (benchmarks/bench): a loop of MODULE with async and poll, which takes the module path."],
    "Benchmark async",
    "    - name: Async task\n"
    "      MODULE:ARGS\n"
    + LOOP +
    "      async: 60\n"
    "      poll: 1\n")


def pattern_playbook(kind):
    if kind == "ours":
        return PLAYBOOKS / "pattern.yml"
    text = (PLAYBOOKS / "pattern.yml").read_text().replace("automation.service.", "awx.awx.")
    path = WORK / "pattern-awx.yml"
    path.write_text(text)
    return path


FANOUT_PLAY = play(
    ["Written by the benchmark (benchmarks/bench): N hosts through a loop with async and poll 0, all at once; the",
     "benchmark waits for the job files itself."],
    "Benchmark the fan-out",
    "    - name: Hosts\n"
    "      automation.service.host:\n"
    '        name: "bench-fanout-{{ item }}"\n'
    "        inventory: bench-fanout\n"
    '        description: "{{ bench_description }}"\n'
    + LOOP +
    "      async: 1000\n"
    "      poll: 0\n")


def run_playbook(config, service, extra_vars, inventory="localhost,", forks=None, playbook=None):
    timings = WORK / "timings.jsonl"
    if timings.exists():
        timings.unlink()
    env = dict(config.env, BENCH_TIMINGS=str(timings))
    command = ["ansible-playbook", str(playbook or config.playbook), "-i", inventory]
    if forks:
        command += ["-f", str(forks)]
    command += ["-e", json.dumps(dict(config.extra_vars, **extra_vars))]
    mark = service.mark()
    started = time.time()
    result = subprocess.run(command, env=env, capture_output=True, text=True, cwd=str(WORK))
    wall = time.time() - started
    entries = service.since(mark)
    tasks = []
    if timings.exists():
        tasks = [json.loads(line) for line in timings.read_text().splitlines() if line.strip()]
    failed = [t for t in tasks if t.get("failed")]
    if result.returncode != 0 or failed:
        (WORK / "last-failure.log").write_text(result.stdout + "\n" + result.stderr)
        raise RuntimeError("%s: ansible-playbook failed (rc %s); see %s\n%s"
                           % (config.key, result.returncode, WORK / "last-failure.log", result.stdout[-2000:]))
    return tasks, entries, wall


def pattern_setup(service, organization=1):
    """The project the job templates use (a manual project of the service's demo playbooks; one project only may
    use a directory, so the async pattern and the configuration at scale share it)."""
    found = service.api("GET", "/api/v2/projects/?name=bench-pattern")["results"]
    if found:
        return found[0]["name"]
    body = {"name": "bench-pattern", "organization": organization, "scm_type": "", "local_path": "demo"}
    return service.api("POST", "/api/v2/projects/", json=body)["name"]
