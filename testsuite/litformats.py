# litformats.py — ptxopt's own lit test format (importable, so lit can
# pickle it for parallel runs).
import os
import subprocess

import lit.formats
import lit.Test


class RoundTrip(lit.formats.TestFormat):
    """Every .ptx file of a corpus directory is a test: the round-trip ladder
    of roundtrip.sh.  Exit status 77 means ptxas is missing: UNSUPPORTED
    (skipped), never PASS."""

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        src = testSuite.getSourcePath(path_in_suite)
        for name in sorted(os.listdir(src)):
            full = os.path.join(src, name)
            if name.endswith(".ptx") and os.path.isfile(full):
                yield lit.Test.Test(testSuite, path_in_suite + (name,), localConfig)

    def execute(self, test, litConfig):
        script = os.path.join(test.config.ptxopt_srcdir, "testsuite", "roundtrip.sh")
        env = dict(test.config.environment)
        env["PTXOPT"] = os.path.join(test.config.ptxopt_builddir, "ptxopt")
        p = subprocess.run(["bash", script, test.getSourcePath()], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode == 0:
            return lit.Test.PASS, ""
        if p.returncode == 77:
            return lit.Test.UNSUPPORTED, p.stdout
        return lit.Test.FAIL, p.stdout
