# once per machine, before a merge with --hf_upload_path (or export HF_TOKEN instead)
hf auth login
