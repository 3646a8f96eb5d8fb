# 对照锁定的 verl 版本检查整个文档目录（docs/ 与 snippets/）
verl-cookbook check
# 对照另一个覆盖的版本检查单个页面
verl-cookbook check docs/backends/nccl-hccl.md --verl 0.9.0
# 对照 PyPI 上最新的 verl 检查
verl-cookbook check --verl latest
# 以宽松模式检查其他项目的 Markdown：对照 verl 检出目录，按语言推断每个代码块的检查方式
verl-cookbook check --lenient --verl-src ~/src/verl ~/src/verl/docs
# 输出检查工具从 verl 源码中提取的信息及源码行号
verl-cookbook facts --format json > verl-facts.json
