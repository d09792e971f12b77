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


class Script(lit.formats.TestFormat):
    """Every .sh file of a directory is a test that sets up what it needs
    itself (testsuite/slurm: a Slurm cluster on localhost), run by bash with
    the suite's environment plus PTXOPT_SRCDIR, PTXOPT_BUILDDIR and
    PTXOPT_TMP (a fresh directory of its own).  Exit status 0 is PASS; 77
    is UNSUPPORTED, with the reason the script printed (what it could not
    start), never PASS; anything else FAIL."""

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        src = testSuite.getSourcePath(path_in_suite)
        for name in sorted(os.listdir(src)):
            full = os.path.join(src, name)
            if name.endswith(".sh") and os.path.isfile(full):
                yield lit.Test.Test(testSuite, path_in_suite + (name,), localConfig)

    def execute(self, test, litConfig):
        import shutil
        env = dict(test.config.environment)
        env["PTXOPT_SRCDIR"] = test.config.ptxopt_srcdir
        env["PTXOPT_BUILDDIR"] = test.config.ptxopt_builddir
        # in Output/ beside it, as lit's %t (ignored by git, removed by make clean)
        tmp = os.path.join(os.path.dirname(test.getExecPath()), "Output",
                           os.path.basename(test.getExecPath()) + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        env["PTXOPT_TMP"] = tmp
        if "ptxas" not in test.config.available_features:
            return lit.Test.UNSUPPORTED, "ptxas not found"
        p = subprocess.run(["bash", test.getSourcePath()], env=env, cwd=tmp,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode == 0:
            return lit.Test.PASS, p.stdout
        if p.returncode == 77:
            return lit.Test.UNSUPPORTED, p.stdout
        return lit.Test.FAIL, p.stdout
