"""Django's JSON serialization format, with times to the microsecond.

Django's own encoder cuts datetimes to the millisecond, so a backup would bring back
``12:00:00.000123`` as ``12:00:00``; backups (backup.archive) use this format instead. It is
plain Django fixture JSON, registered in settings (SERIALIZATION_MODULES), so ``dumpdata
--format exactjson`` writes it and ``loaddata`` reads ``*.exactjson`` files.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.serializers import json
from django.core.serializers.json import DjangoJSONEncoder

FORMAT = "exactjson"


class ExactJSONEncoder(DjangoJSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


class Serializer(json.Serializer):
    def start_serialization(self) -> None:
        self.options.setdefault("cls", ExactJSONEncoder)  # the JSON encoder Django's will use
        super().start_serialization()


Deserializer = json.Deserializer
