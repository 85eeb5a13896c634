"""Triage's prefixes stage: the labellers, and the structure inferred per file."""

from __future__ import annotations

from jobc.jobs.prefixes import PLAIN, infer, split


def test_labellers_read_what_each_prefix_says() -> None:
    line = split("3: [rank3]: ValueError: x")
    assert (line.task, line.rank, line.text) == (3, 3, "ValueError: x")
    line = split("gpu-a07:412:790 [3] NCCL WARN NET/IB : Got completion")
    assert (line.node, line.writer, line.text) == (
        "gpu-a07",
        "gpu-a07:412",
        "NCCL WARN NET/IB : Got completion",
    )
    line = split("E0412 10:31:02.123000 8123 torch/distributed/elastic/multiprocessing/api.py:869] failed")
    assert (line.level, line.text) == ("E", "failed")
    line = split("(RayWorkerWrapper pid=4139, ip=10.0.0.7) RuntimeError: x")
    assert (line.node, line.writer, line.text) == ("10.0.0.7", "pid 4139", "RuntimeError: x")
    line = split("x.nolog [stderr] Traceback (most recent call last):")
    assert (line.writer, line.text) == ("x.nolog", "Traceback (most recent call last):")
    line = split("[Mon Nov 27 13:11:44 2023] Out of memory: Killed process 4242 (python)")
    assert line.text == "Out of memory: Killed process 4242 (python)"
    # MPICH's simple PMI client names its PMI rank; torchrun's `[default1]:` a local rank
    line = split("[cli_3]: write_line error; fd=12 buf=:cmd=barrier_in")
    assert (line.rank, line.local_rank, line.text) == (3, None, "write_line error; fd=12 buf=:cmd=barrier_in")
    line = split("[default1]: ValueError: x")
    assert (line.rank, line.local_rank) == (None, 1)
    # a logger's rank field and a level between bars (ParlAI's); a word that only starts with rank
    line = split("rank:  3 | 2022-04-03 18:44:26,615 CRITICAL | Traceback (most recent call last):")
    assert (line.rank, line.level, line.text) == (3, "CRITICAL", "Traceback (most recent call last):")
    line = split("ranking: 3 | top-1 accuracy")
    assert (line.rank, line.text) == (None, "ranking: 3 | top-1 accuracy")
    # torch's rank tag under a paste's indentation; a traceback's code line stays as it is
    line = split(" [rank3]:[E227 16:30:43.526301625 ProcessGroupNCCL.cpp:1834] Timeout at NCCL work: 32")
    assert (line.rank, line.level, line.text) == (3, "E", "Timeout at NCCL work: 32")
    assert split("    [rank3] = shards[3]").text == "    [rank3] = shards[3]"
    # a bare process index before a timestamp is its writer; a numbered note is text
    line = split("[1] 2019-06-13 01:17:08.886805: E external/xla/local_client.cc:672] Execution failed")
    assert (line.writer, line.level, line.text) == ("[1]", "E", "Execution failed")
    assert split("[1] see the docs").text == "[1] see the docs"
    # oneCCL's header names its process
    line = split(
        "2025:05:23-19:04:20:(168955) |CCL_ERROR| atl_ofi.cpp:237 init: can't find suitable provider"
    )
    assert (line.writer, line.text) == (
        "pid 168955",
        "|CCL_ERROR| atl_ofi.cpp:237 init: can't find suitable provider",
    )


def test_pasted_line_numbers_are_inferred_and_taken_off() -> None:
    lines = [
        "12 Traceback (most recent call last):",
        '13   File "/home/u/train.py", line 9, in <module>',
        "14     main()",
        "15 ValueError: bad",
    ]
    sample = [(i + 1, t) for i, t in enumerate(lines)]
    model = infer(sample)
    assert model.line_offset == 11
    assert split(lines[3], model, 4).text == "ValueError: bad"
    # without the inference, `15 ` is text (it is no srun label: those end with a colon)
    assert split(lines[3], PLAIN, 4).text == "15 ValueError: bad"


def test_srun_labels_are_no_line_numbers() -> None:
    lines = ["0: a", "1: b", "0: c", "3: d", "2: e"]
    model = infer([(i + 1, t) for i, t in enumerate(lines)])
    assert model.line_offset is None
    assert split("0: c", model, 3).task == 0


def test_host_prefixes_without_digits_and_under_indentation_are_inferred() -> None:
    lines = [
        "    master: [INFO] starting",
        "    master: Traceback (most recent call last):",
        '    master:   File "t.py", line 1, in <module>',
        "    master: ModuleNotFoundError: No module named 'x'",
    ]
    model = infer([(i + 1, t) for i, t in enumerate(lines)])
    assert "master" in model.hosts
    assert model.indented_hosts
    line = split(lines[3], model, 4)
    assert (line.node, line.text) == ("master", "ModuleNotFoundError: No module named 'x'")
    # a word a program prints before a colon is no host, however often it repeats
    words = ["Epoch: [0][1/9] loss 1.0", "Epoch: [0][2/9] loss 0.9", "Epoch: [0][3/9] loss 0.8", "error: x y"]
    model = infer([(i + 1, t) for i, t in enumerate(words)])
    assert model.hosts == frozenset()
    assert split("jobc: master n0:29500, restart 0", infer([(1, "jobc: a b")] * 4)).node is None


def test_a_program_naming_itself_before_a_colon_is_no_host() -> None:
    # pattern seen in: dstndstn/tractor issue #126 (qdo's srun wrapper tags what it relays)
    lines = [
        "qdo-srun.py: srun#64: slurmstepd: error: Detected 1 oom_kill event in StepId=4.67.",
        "qdo-srun.py: srun#64: Found OOM event for task 6627566 ; setting task state to Killed",
    ]
    model = infer([(i + 1, t) for i, t in enumerate(lines)])
    assert split(lines[0], model, 1).node is None
    # near miss: a host whose name has a dot and a digit stays a host
    assert split("gpu-a07.cluster: ValueError: bad", PLAIN, 1).node == "gpu-a07.cluster"


def test_a_glog_header_with_a_three_digit_date_is_a_level() -> None:
    line = split("[rank12]:[E909 09:55:29.313379098 ProcessGroupNCCL.cpp:1664] [PG 0 Rank 12] Exception")
    assert (line.rank, line.level, line.text) == (12, "E", "[PG 0 Rank 12] Exception")


def test_a_writer_tag_names_the_node_its_dotted_name_holds() -> None:
    line = split("dinov2-giant-nodes.cn-d004 [stderr] [rank14]: boom")
    assert (line.writer, line.node, line.rank) == ("dinov2-giant-nodes.cn-d004", "cn-d004", 14)
    assert split("gpu12.cluster.org [stdout] boom").node == "gpu12"
    # names with no numbered node in them
    for name in ("x.nolog", "worker-3/train", "bench.run", "job.123"):
        line = split(f"{name} [stderr] boom")
        assert (line.writer, line.node) == (name, None), name


def test_a_paste_that_indented_every_line_is_read_as_if_it_had_not() -> None:
    lines = [
        "    [1,12]<stderr>:[n-3:04200] *** Process received signal ***",
        "    Traceback (most recent call last):",
        '      File "/home/u/train.py", line 9, in <module>',
        "    ValueError: bad",
    ]
    model = infer([(i + 1, t) for i, t in enumerate(lines)])
    assert model.indent == 4
    assert split(lines[0], model).rank == 12
    assert split(lines[2], model).text == '  File "/home/u/train.py", line 9, in <module>'
    assert split(lines[3], model).text == "ValueError: bad"
    # a log whose lines are not all indented keeps every line as it is
    assert infer([(1, "ValueError: bad"), (2, "    x = 1")]).indent == 0


def test_a_strong_prefix_under_indentation_is_read_on_its_own_line() -> None:
    assert split("   [1,3]<stderr>:Segmentation fault").rank == 3
    assert split("  (pid=77, ip=10.0.0.5) Segmentation fault").node == "10.0.0.5"
    assert split("    gpu-a:1:2 [0] NCCL WARN x").node == "gpu-a"
    # a traceback's frame keeps its indentation
    assert split('    File "x.py", line 1').text == '    File "x.py", line 1'


def test_a_timestamp_in_lenticular_brackets_is_a_prefix_and_a_bracketed_word_is_not() -> None:
    line = split("【2025-08-21 11:48:44】[rank7]: torch.OutOfMemoryError: CUDA out of memory.")
    assert (line.rank, line.text) == (7, "torch.OutOfMemoryError: CUDA out of memory.")
    assert split("【2025年08月21日 11:48】 ValueError: x").text == "ValueError: x"
    assert split("【注意】 rank 7 failed").text == "【注意】 rank 7 failed"


def test_a_time_glued_to_a_rank_tag_is_taken_off_and_the_tag_read() -> None:
    # Horovod's timestamped output: asctime() then `[index]<stream>:`; a bracketed ISO time glued
    # to Open MPI's tag the same way
    line = split("Sat Jan 30 08:17:46 2021[0]<stderr>:OSError: Timed out")
    assert (line.rank, line.text) == (0, "OSError: Timed out")
    line = split("Mon Feb  1 10:02:03 2021[12]<stdout>:epoch 1")
    assert (line.rank, line.text) == (12, "epoch 1")
    line = split("[2021-01-30 08:17:46][1,3]<stderr>:ValueError: x")
    assert (line.rank, line.text) == (3, "ValueError: x")
    # near misses: a bracketed number after the time that is no stream tag, a time in a sentence
    line = split("Sat Jan 30 08:17:46 2021[3] loss 0.2 ValueError: x")
    assert line.rank is None
    line = split("started Sat Jan 30 08:17:46 2021[0]<stderr>:x")
    assert line.rank is None


def test_a_host_rank_and_world_prefix_names_the_node_and_the_rank() -> None:
    # ESPnet's logging format: `[host:rank/size] time (module:line) LEVEL: message`
    line = split("[lion15:0/4] 2020-09-05 20:04:10,182 (lm:187) INFO: Vocabulary size: 35")
    assert (line.node, line.rank, line.local_rank) == ("lion15", 0, None)
    line = split("[gpu-a07:7/16] ValueError: x")
    assert (line.node, line.rank, line.text) == ("gpu-a07", 7, "ValueError: x")
    # near misses: a progress counter (a word, not a host), a rank past the world's size
    for text in ("[epoch:3/10] ValueError: x", "[gpu12:5/4] ValueError: x"):
        line = split(text)
        assert (line.node, line.rank) == (None, None), text


def test_an_editors_relative_line_numbers_are_inferred_and_taken_off() -> None:
    # vim's `relativenumber` above the cursor: 12, 11, … one less a line; the fences are no lines of it
    lines = ["```", " 12 Worker node hostname: d-12-5-2", " 11 2020-06-10 INFO -- Using IP"]
    lines += [f"{n:>3} line {n}" for n in range(10, 2, -1)] + ["```"]
    model = infer(list(enumerate(lines, start=1)))
    assert (model.line_sum, model.line_offset) == (14, None)
    assert split(lines[1], model, 2).text == "Worker node hostname: d-12-5-2"
    # near miss: numbers that do not count down with the lines are the lines' own
    counted = [f"{n} apples" for n in (12, 3, 40, 7)]
    assert infer(list(enumerate(counted, start=1))).line_sum is None


def test_older_slurmstepd_names_its_node_in_brackets() -> None:
    # Slurm 2.x's slurmstepd logged as `slurmd[NODE]:`; its lines read as slurmstepd's, on that node
    said = "error: *** JOB 2460227 CANCELLED AT 2014-12-19T22:03:55 DUE TO TIME LIMIT ***"
    line = split("slurmd[curie1713]: " + said)
    assert (line.node, line.text) == ("curie1713", "slurmstepd: " + said)
    # near misses: a syslog tag's process id, a word in brackets
    for text in ("slurmd[2211]: error: x", "slurmd[main]: error: x"):
        assert split(text).node is None, text


def test_open_mpis_btl_header_names_the_node_and_the_rank() -> None:
    # BTL_ERROR's `[host][[jobfamily,job],rank][file.c:line:function] ` (gperfstudy's Flux run)
    line = split(
        "[amg-29][[0,0],2620][btl_tcp_endpoint.c:730:mca_btl_tcp_endpoint_start_connect] bind on local "
        "address (10.44.108.3:0) failed: Address already in use (98)"
    )
    assert (line.node, line.rank) == ("amg-29", 2620)
    assert line.text.startswith("bind on local address")
    # near misses: a host then a bracketed pair that is no process name (a list, a time)
    for text in ("[amg-29][0,2620] bind failed", "[amg-29][[0,0]] bind failed"):
        line = split(text)
        assert line.rank is None, text


def test_a_syslog_line_with_a_zone_or_an_rfc3339_time_names_its_host() -> None:
    # a cloud VM's serial console (`Dec 17 16:03:58Z host prog[pid]: `) and rsyslog's RFC 3339
    # time (`journalctl -o short-iso`): the host is the line's node, the rest its text
    for raw in (
        "Dec 17 16:03:58Z tpu-vm-3 startup-script[812]: RuntimeError: boom",
        "2024-12-17T16:03:58.123456+00:00 tpu-vm-3 startup-script[812]: RuntimeError: boom",
        "Dec 17 16:03:58 tpu-vm-3 startup-script[812]: RuntimeError: boom",
    ):
        line = split(raw)
        assert (line.node, line.text) == ("tpu-vm-3", "RuntimeError: boom"), raw
    # near miss: a logger's time with a space, then its level and its name, is no host
    line = split("2024-12-17 16:03:58,123 INFO trainer: step 10")
    assert line.node is None
    # near miss: an RFC 3339 time before words that are no host
    line = split("2024-12-17T16:03:58Z Epoch 3: loss 0.1")
    assert line.node is None
