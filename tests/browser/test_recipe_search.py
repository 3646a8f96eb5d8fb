"""The recipe answers issue 11 added are found by the site's own search, typed the way users ask (or paste
the error they got): each query lists the page that answers it among the first results, in its language."""

from __future__ import annotations

import pytest

from tests.browser.test_site_in_browser import hit_pages, open_page, search

pytestmark = pytest.mark.browser

TOP = 3  # the answer must be among the first pages Material lists (a page's sections count once)

QUESTIONS = [
    # (language root, what a user types, the page that answers it)
    ("", "async_save 断点续训 从头开始", "recipes/async-resume/"),
    ("", "Megatron 检查点 合并", "recipes/model-merger/"),
    ("", "LoRA 适配器", "recipes/model-merger/"),
    ("", "train_batch_size parameter_sync_step ppo_mini_batch_size", "recipes/delta-sync/"),
    ("", "检查点回调 异步保存 上传", "recipes/checkpoint-callback/"),
    ("", "术语表", "glossary/"),
    ("en/", "async_save resume starts from scratch", "en/recipes/async-resume/"),
    ("en/", "merge megatron checkpoint", "en/recipes/model-merger/"),
    ("en/", "trust-remote-code", "en/recipes/model-merger/"),
    ("en/", "parameter_sync_step", "en/recipes/delta-sync/"),
    ("en/", "checkpoint callback upload after training", "en/recipes/checkpoint-callback/"),
    ("en/", "SuperPoD", "en/glossary/"),
]


@pytest.mark.parametrize(("start", "query", "answer"), QUESTIONS)
def test_a_users_question_finds_the_page_that_answers_it(browser, site_url, start, query, answer):
    page, ctx, _traffic = open_page(browser, site_url + start)
    pages = list(dict.fromkeys(hit_pages(search(page, query))))
    ctx.close()
    assert site_url + answer in pages[:TOP], f"{query!r}: {answer} is not among the first {TOP} pages: {pages[:TOP]}"
