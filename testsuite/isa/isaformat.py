# isaformat.py — lit format of the ISA conformance suite: every .ptx module
# in this directory is one test, run through check.sh; the test is named
# after the module, so a refusal names it.  A .test file here is an
# ordinary RUN-line test (coverage.test).  Exit status 77 (no ptxas) is
# UNSUPPORTED, never PASS.
import os
import subprocess

import lit.formats
import lit.Test


class IsaModule(lit.formats.TestFormat):
    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        src = testSuite.getSourcePath(path_in_suite)
        for name in sorted(os.listdir(src)):
            if name.endswith((".ptx", ".test")) and os.path.isfile(os.path.join(src, name)):
                yield lit.Test.Test(testSuite, path_in_suite + (name,), localConfig)

    def execute(self, test, litConfig):
        if test.getSourcePath().endswith(".test"):   # RUN lines, as elsewhere
            return lit.formats.ShTest(execute_external=True).execute(test, litConfig)
        script = os.path.join(os.path.dirname(test.getSourcePath()), "check.sh")
        env = dict(test.config.environment)
        env["PTXOPT"] = os.path.join(test.config.ptxopt_builddir, "ptxopt")
        p = subprocess.run(["bash", script, test.getSourcePath()], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode == 0:
            return lit.Test.PASS, p.stdout
        if p.returncode == 77:
            return lit.Test.UNSUPPORTED, p.stdout
        return lit.Test.FAIL, p.stdout
