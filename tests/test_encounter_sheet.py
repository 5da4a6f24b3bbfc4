"""The block layout's encounter sheet (party.pdf), issue 23: laid out by the sheet workers without
the main process importing WeasyPrint."""

import subprocess
import sys


def test_the_main_process_of_a_block_batch_does_not_import_weasyprint(tmp_path):
    code = ("import sys\nfrom chargen.launch import main\n"
            f"sys.argv = ['chargen', 'generate', '--system', 'd100', '--seed', '42', '--count', '3', '--layout', 'block',"
            f" '--format', 'pdf', '-o', {str(tmp_path / 'out')!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('weasyprint' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "False"
    assert (tmp_path / "out" / "party.pdf").stat().st_size > 0
