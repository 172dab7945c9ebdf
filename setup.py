"""Bundle `sample-vault/` into the package so `serve --demo` works from a plain `pip install .`."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithSampleVault(build_py):
    def run(self) -> None:
        super().run()
        source = Path(__file__).parent / "sample-vault"
        target = Path(self.build_lib) / "cortexgraph_vault" / "sample_vault"
        if source.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)


setup(cmdclass={"build_py": BuildWithSampleVault})
