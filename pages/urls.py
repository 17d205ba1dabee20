app_name = "pages"

urlpatterns = []
