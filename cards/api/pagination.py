from rest_framework.pagination import PageNumberPagination


class CardPagination(PageNumberPagination):
    """Page numbers over a total order (every list view orders by a unique key last)."""

    page_size = 60
    page_size_query_param = "page_size"
    max_page_size = 250
