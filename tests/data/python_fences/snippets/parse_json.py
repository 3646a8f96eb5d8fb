import json

assert json.loads("[1, 2]") == [1, 2]
