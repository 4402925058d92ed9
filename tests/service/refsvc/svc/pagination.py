from rest_framework.pagination import PageNumberPagination
from rest_framework.utils.urls import replace_query_param


class Pagination(PageNumberPagination):
    """AWX pagination: count/next/previous/results, links relative to the host."""

    page_size_query_param = "page_size"
    max_page_size = 200

    def _link(self, number):
        url = self.request.get_full_path()
        return replace_query_param(url, self.page_query_param, number)

    def get_next_link(self):
        if not self.page.has_next():
            return None
        return self._link(self.page.next_page_number())

    def get_previous_link(self):
        if not self.page.has_previous():
            return None
        return self._link(self.page.previous_page_number())
