"""The ten-line Python example the README points to (docs/python.md), run as a user would run it (from the
repository root)."""

import os
import re
import subprocess
import sys
import unittest

from . import support


class ReadmeExampleTest(unittest.TestCase):

    def test_the_python_example_runs_and_prints_its_jobs_and_releases(self):
        readme = (support.REPO / "README.md").read_text(encoding="utf-8")
        self.assertIn("(docs/python.md)", readme, "the README links the Python example")
        page = (support.REPO / "docs" / "python.md").read_text(encoding="utf-8")
        match = re.search(r"<!-- python-example -->\s*```python\n(.*?)```", page, re.S)
        self.assertIsNotNone(match, "docs/python.md has the marked example")
        code = match.group(1)
        self.assertLessEqual(len(code.strip().splitlines()), 12, "about ten lines")
        env = dict(os.environ)
        if "KVLEDGER_JAR" not in env and "KVLEDGER_CLASSPATH" not in env:
            env["KVLEDGER_JAR"] = support.built_jar()
        done = subprocess.run([sys.executable, "-c", code], cwd=support.REPO, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=300)
        self.assertEqual(0, done.returncode, done.stderr.decode())
        self.assertEqual(["store 0 blocks [7, 8]", "free [[7, 8, 9]]"], done.stdout.decode().splitlines())


if __name__ == "__main__":
    unittest.main()
